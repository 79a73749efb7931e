package engine

import (
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/runerr"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textRecordedProfile runbook.Quoted = "recorded profile"
	textShipsProtocol   runbook.Quoted = "this yaag ships protocol"
)

// CheckProtocol refuses a Cassette that recorded another version of the
// user-input protocol than this yaag ships: its questions and answers
// would be read another way.
func CheckProtocol(path string, d *cassette.Doc) error {
	if got := d.Run.UserInputProtocol; got != cassette.UserInputProtocol {
		return runerr.New(runerr.ResumeRefused, runbook.YaagProtocol,
			"%s recorded user-input protocol %d, and %s %d; record the Run again with this yaag", path, got, textShipsProtocol, cassette.UserInputProtocol)
	}
	return nil
}

// checkResume refuses a replay or a resume whose Profile is not the one
// the Cassette recorded: a Profile binds what a Role spawns, so every
// Agent of a Profiled Definition would differ.
func (v *vm) checkResume() error {
	if v.opts.Mode == Live || v.opts.Tape == nil {
		return nil
	}
	if err := CheckProtocol("the Cassette", v.opts.Tape); err != nil {
		return err
	}
	return CheckProfile(v.opts.Tape, v.profiles.active, v.opts.ProfileOrigin)
}

// CheckProfile refuses a Profile that is not the one the Cassette
// recorded.
func CheckProfile(d *cassette.Doc, profile, origin string) error {
	if rec := d.Run.Profile; rec != profile {
		if origin == "" {
			origin = "the program's defaultProfile"
		}
		return runerr.New(runerr.ResumeRefused, runbook.YaagReplayMismatch,
			"the Cassette's %s is %q, and this Run's Profile is %q (from %s); give --profile %s, or record the Run again",
			textRecordedProfile, rec, profile, origin, profileFlag(rec))
	}
	return nil
}

func profileFlag(p string) string {
	if p == "" {
		return `""`
	}
	return p
}
