package yaagwire

import (
	"encoding/json"
	"strconv"

	"boxmaker/core/role"
)

// yaag run and the flags of it that start a Run for brokerd's yaag_run:
// roles/yaag defines them by these names, and Command.Args writes them.
const (
	RunCommand      = "run"
	FlagJSON        = "json"
	FlagRoot        = "root"
	FlagHostSession = "host-session"
	FlagForkHost    = "fork-host"
	FlagInput       = "input"
	FlagProfile     = "profile"
	FlagEvalFD      = "eval-fd"
	FlagLoopSocket  = "loop-socket"
	FlagManifest    = "manifest"
	FlagApproved    = "approved"
	FlagRunID       = "run-id"
	FlagControlUID  = "control-uid"
)

// Command is a Run that brokerd's yaag_run starts, as yaag run's command
// line says it: events as JSON lines, no program file read outside Root.
type Command struct {
	Root        string // the decided directory
	HostSession string // the session whose yaag_run starts the Run
	ForkHost    bool   // copy the host session for fork: ctx.host
	Input       json.RawMessage
	Profile     string
	// The program: the inline one read from the descriptor EvalFD when
	// Inline, else the file File (under Root).
	Inline bool
	EvalFD int
	File   string
	// LoopSocket is loopd's loop socket, brokerd's to say: a confined Run
	// takes no path from its directory's config.
	LoopSocket string
	// Manifest asks only for the manifest of the files the Run would read
	// (snapshot.Manifest, one JSON line); Approved is the manifest
	// SHA-256 the owner approved, which the Run must read or refuse.
	Manifest bool
	Approved string
	// ID is the Run's id, chosen by brokerd so that it can stop the Run
	// before the Run has written anything; ControlUID a uid the Run's
	// Control Channel lets in besides its own (brokerd's: the Run runs
	// as the tools' uid).
	ID         string
	ControlUID *int
}

// Args is the command line after the binary.
func (c Command) Args() []string {
	args := []string{role.Yaag.String(), RunCommand, "--" + FlagJSON, "--" + FlagRoot, c.Root, "--" + FlagHostSession, c.HostSession}
	if c.ForkHost {
		args = append(args, "--"+FlagForkHost)
	}
	if c.Input != nil {
		args = append(args, "--"+FlagInput, string(c.Input))
	}
	if c.Profile != "" {
		args = append(args, "--"+FlagProfile, c.Profile)
	}
	if c.LoopSocket != "" {
		args = append(args, "--"+FlagLoopSocket, c.LoopSocket)
	}
	if c.Manifest {
		args = append(args, "--"+FlagManifest)
	}
	if c.Approved != "" {
		args = append(args, "--"+FlagApproved, c.Approved)
	}
	if c.ID != "" {
		args = append(args, "--"+FlagRunID, c.ID)
	}
	if c.ControlUID != nil {
		args = append(args, "--"+FlagControlUID, strconv.Itoa(*c.ControlUID))
	}
	if c.Inline {
		return append(args, "--"+FlagEvalFD, strconv.Itoa(c.EvalFD))
	}
	return append(args, "--", c.File)
}
