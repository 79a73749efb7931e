package runbook

// memoryd's Honcho sync and read (core/honcho, core/honchosync).
const (
	// [honcho], [[honcho.read]] or [secrets.honcho_*] of memoryd.toml
	// cannot be used: memoryd exits before it takes its lock.
	HonchoConfigInvalid Entry = "honcho-config-invalid"
)
