// Package runs keeps yaag's Runs: a record of each under
// $BOXMAKER_HOME/yaag/runs/ (<id>.json, replaced atomically as the Run
// goes: running, then completed, failed, stopped or paused), the Run's
// events as JSON lines beside it (<id>.events.jsonl, for reattach), and
// its Control Channel under $BOXMAKER_HOME/run/yaag/<id>/ (control.sock,
// and the lock the Run's process holds while it lives, which tells a
// running record from one whose process is gone). Execute runs one Run
// with all of it: the Cassette's journal, the resume's claim, the host's
// copy, the engine, the publish.
package runs

import "boxmaker/core/yaagwire"

// A Run's record, its command line and where a home keeps it are the
// wire's (core/yaagwire), which brokerd reads without linking the engine.
type (
	Record     = yaagwire.Record
	AgentRef   = yaagwire.AgentRef
	Store      = yaagwire.Store
	NoRunError = yaagwire.NoRunError
	EndedError = yaagwire.EndedError
	Command    = yaagwire.Command
)

// Record statuses; StatusLost is shown for a running record whose
// process is gone (nobody holds its lock).
const (
	StatusRunning   = yaagwire.StatusRunning
	StatusCompleted = yaagwire.StatusCompleted
	StatusFailed    = yaagwire.StatusFailed
	StatusStopped   = yaagwire.StatusStopped
	StatusPaused    = yaagwire.StatusPaused
	StatusLost      = yaagwire.StatusLost
)

// MaxBoxRecord is the largest record a Run's box may hold.
const MaxBoxRecord = yaagwire.MaxBoxRecord

// yaag run and the flags of it that start a Run for brokerd's yaag_run.
const (
	RunCommand      = yaagwire.RunCommand
	FlagJSON        = yaagwire.FlagJSON
	FlagRoot        = yaagwire.FlagRoot
	FlagHostSession = yaagwire.FlagHostSession
	FlagForkHost    = yaagwire.FlagForkHost
	FlagInput       = yaagwire.FlagInput
	FlagProfile     = yaagwire.FlagProfile
	FlagEvalFD      = yaagwire.FlagEvalFD
	FlagLoopSocket  = yaagwire.FlagLoopSocket
	FlagManifest    = yaagwire.FlagManifest
	FlagApproved    = yaagwire.FlagApproved
	FlagRunID       = yaagwire.FlagRunID
	FlagControlUID  = yaagwire.FlagControlUID
)
