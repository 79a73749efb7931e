package runbook

// memoryd's Honcho sync and read (core/honcho, core/honchosync).
const (
	// [honcho], [[honcho.read]] or [secrets.honcho_*] of memoryd.toml
	// cannot be used: memoryd exits before it takes its lock.
	HonchoConfigInvalid Entry = "honcho-config-invalid"
	// Messages wait in the outbox, or recall left Honcho's hits out:
	// Honcho is down, slow, refuses the key, or a key cannot be read.
	HonchoUnreachable Entry = "honcho-unreachable"
	// memory/outbox/ is not what memoryd wrote: nothing is synced.
	HonchoOutboxDamaged Entry = "honcho-outbox-damaged"
)
