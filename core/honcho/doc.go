// Package honcho is memoryd's side of Honcho (plastic-labs/honcho, API
// /v3): the [honcho] configuration's checks (CheckConfig) and a client for
// the few routes Boxmaker uses (Client). The sync that drives it is
// core/honchosync; the specification is docs/specs/honcho.md.
package honcho
