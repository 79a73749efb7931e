package runbook

// Reading a secret ([secrets.<name>] of gatewayd, memoryd, inferproxy):
// core/secrets.
var (
	// The value cannot be had from the source the table names.
	SecretUnavailable = newEntry("secret-unavailable")
	// A warning at every start: a secret is read from a plaintext file.
	SecretInAFile = newEntry("secret-in-a-file")
)
