package runbook

// memoryd's Honcho sync and read (core/honcho, core/honchosync).
var (
	// [honcho], [[honcho.read]] or [secrets.honcho_*] of memoryd.toml
	// cannot be used: memoryd exits before it takes its lock.
	HonchoConfigInvalid = newEntry("honcho-config-invalid")
	// Messages wait in the outbox, or recall left Honcho's hits out:
	// Honcho is down, slow, refuses the key, or a key cannot be read.
	HonchoUnreachable = newEntry("honcho-unreachable")
	// memory/outbox/ is not what memoryd wrote: nothing is synced.
	HonchoOutboxDamaged = newEntry("honcho-outbox-damaged")
)
