package runbook

// Reading a secret ([secrets.<name>] of gatewayd, memoryd, inferproxy):
// core/secrets.
const (
	// The value cannot be had from the source the table names.
	SecretUnavailable Entry = "secret-unavailable"
	// A warning at every start: a secret is read from a plaintext file.
	SecretInAFile Entry = "secret-in-a-file"
)
