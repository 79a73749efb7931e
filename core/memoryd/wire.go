package memoryd

import (
	"boxmaker/core/honchosync"
	"boxmaker/core/memory"
	"boxmaker/core/memorywire"
)

// The sockets carry core/memorywire's bodies, never the engine's types,
// so that a client links no part of memoryd's engine: memoryd converts
// at the socket, here. The journal and the staged edits are the engine's
// files on disk, and the wire's shapes of them may not follow a change
// of either.

// actionsFromWire are the actions of a call as core/memory takes them
// (nil stays nil).
func actionsFromWire(acts []memorywire.Action) []memory.Action {
	if acts == nil {
		return nil
	}
	out := make([]memory.Action, len(acts))
	for i, a := range acts {
		out[i] = memory.Action(a)
	}
	return out
}

func actionsToWire(acts []memory.Action) []memorywire.Action {
	if acts == nil {
		return nil
	}
	out := make([]memorywire.Action, len(acts))
	for i, a := range acts {
		out[i] = memorywire.Action(a)
	}
	return out
}

// logToWire is the journal as memory.log answers it: never nil, so that
// an empty journal is [] on the wire.
func logToWire(edits []memory.LogEntry) []memorywire.LogEntry {
	out := make([]memorywire.LogEntry, len(edits))
	for i, e := range edits {
		out[i] = memorywire.LogEntry{Edit: e.Edit, Time: e.Time, Session: e.Session, Outcome: string(e.Outcome), Rule: e.Rule, Files: e.Files}
	}
	return out
}

// stagedToWire are the staged edits as memory.review answers them: never
// nil.
func stagedToWire(staged []memory.StagedEdit) []memorywire.StagedEdit {
	out := make([]memorywire.StagedEdit, len(staged))
	for i, e := range staged {
		out[i] = memorywire.StagedEdit{Edit: e.Edit, Time: e.Time, Session: e.Session, Class: e.Class, Actions: actionsToWire(e.Actions)}
	}
	return out
}

// statusToWire is the outbox's state as memory.sync answers it.
func statusToWire(st honchosync.Status) memorywire.OutboxStatus { return memorywire.OutboxStatus(st) }
