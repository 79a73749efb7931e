// Package conformance checks the fake Mattermost (its parent package)
// against Mattermost's official wire types and clients,
// github.com/mattermost/mattermost/server/public/model v0.4.3. It is a
// module of its own, for tests only, so that gatewayd never links the
// model package and its dependencies; the fake's own test runs it
// (go test in this directory).
package conformance
