package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"boxmaker/core/atomicfile"
	"boxmaker/core/patherror"
	"boxmaker/runbook"
)

// StateVersion is the state file's format version.
const StateVersion = 1

// maxHandled bounds the posts the state file remembers as handled: older
// ones are behind every channel's cursor.
const maxHandled = 4096

// State is gateway/state.json (docs/specs/gateway.md, section 5). It is
// written whole, atomically (atomicfile), at each change that must
// survive a crash, before the action it records is taken.
type State struct {
	Version int `json:"version"`
	// Bot is the user the token was for when the file was made.
	Bot string `json:"bot"`
	// Since is when gatewayd first started (Unix ms): nothing older is
	// answered in a channel it has no cursor for.
	Since int64 `json:"since"`
	// Channels are where gatewayd has read up to, by channel id.
	Channels map[string]Cursor `json:"channels"`
	// Threads are the threads Boxmaker is in, by root post id.
	Threads map[string]Thread `json:"threads"`
	// Handled are the post ids answered, or taken as commands, oldest first.
	Handled []string `json:"handled"`
	// Turns are the posts waiting for, or in, a turn: queued ones in the
	// order they arrived, per thread.
	Turns []Turn `json:"turns"`
	// Approvals are the approvals posted, by approval id.
	Approvals map[string]*PostedApproval `json:"approvals"`
	// Commands are the approvers' answers taken from Mattermost that
	// brokerd has not settled yet: written before one is handed over, so
	// that no answer is lost in a crash (D451).
	Commands []HeldCommand `json:"commands"`
}

// HeldCommand is one approver's !approve or !refuse, kept until brokerd
// says how its approval ended.
type HeldCommand struct {
	Post     string `json:"post"` // the command's post
	Approval string `json:"approval"`
	CallHash string `json:"call_sha256"`
	Answer   string `json:"answer"` // approve or refuse
	By       string `json:"by"`
	Why      string `json:"why,omitempty"`
	At       int64  `json:"at"` // Unix ms, when it was taken
}

// Cursor is the newest post gatewayd has read in a channel.
type Cursor struct {
	Post string `json:"post"`
	At   int64  `json:"at"` // its create_at
	Type string `json:"type"`
}

// Thread is one thread Boxmaker is in: one session.
type Thread struct {
	Channel string `json:"channel"`
	Session string `json:"session"` // "" until loopd named it
}

// Turn is one post to answer.
type Turn struct {
	Post    string `json:"post"`
	Channel string `json:"channel"`
	Thread  string `json:"thread"`
	User    string `json:"user"`
	// Started is always true now: a turn found in the file after a crash
	// may have been given to loopd, so its thread is read for a reply
	// before it runs.
	Started bool `json:"started"`
}

// PostedApproval is an approval gatewayd posted, and where.
type PostedApproval struct {
	CallHash string         `json:"call_sha256"`
	Session  string         `json:"session"`
	Posts    []ApprovalPost `json:"posts"`
	Expires  int64          `json:"expires"` // Unix ms
	// Summary is its one line (core/approval), kept for the edit that
	// says how it ended; Tool its tool, all a redacted post shows.
	Summary string `json:"summary"`
	Tool    string `json:"tool,omitempty"`
	// Settled is how it ended ("approved by ...", "expired"), "" while
	// pending.
	Settled string `json:"settled,omitempty"`
}

// ApprovalPost is one post of an approval: in a conversation's thread, or
// a DM to one approver.
type ApprovalPost struct {
	Post    string `json:"post"`
	Channel string `json:"channel"`
	Root    string `json:"root"` // the thread it is in ("" for a DM's own thread: the post)
	// Redacted: the post does not show the call's arguments (the
	// session is above public and a stranger reads the thread, D842).
	Redacted bool `json:"redacted,omitempty"`
}

// Store is the state in memory and on disk. Its methods are safe for
// concurrent use; every change is written before it returns.
type Store struct {
	path    string
	writeMu sync.Mutex // held across a write to disk
	mu      sync.Mutex // held while the state is read or changed
	s       State
	// First is true when there was no state file: a first start.
	First bool
	// beforeTouch, set by tests only (export_test.go), is called as a
	// Touch begins, before its change: where another goroutine's Update
	// may write the state.
	beforeTouch func()
}

// OpenState reads the state file at path (in <home>/gateway, made 0700 if
// missing). A missing file is a first start; one that cannot be read or
// is not the format is gateway-state-damaged.
func OpenState(path string) (*Store, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, runbook.Refuse(runbook.GatewaydStartFailed, "cannot prepare %s: %v", dir, patherror.Reason(err))
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil, runbook.Refuse(runbook.GatewaydStartFailed, "cannot prepare %s: is a symbolic link or not a directory", dir)
	}
	st := &Store{path: path}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.First = true
		st.s = State{Version: StateVersion}
	case err != nil:
		return nil, damaged(path, "%v", patherror.Reason(err))
	default:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st.s); err != nil {
			return nil, damaged(path, "not the state gatewayd writes: %v", err)
		}
		if st.s.Version != StateVersion {
			return nil, damaged(path, "version %d, not %d", st.s.Version, StateVersion)
		}
	}
	st.fill()
	return st, nil
}

func (st *Store) fill() {
	if st.s.Channels == nil {
		st.s.Channels = map[string]Cursor{}
	}
	if st.s.Threads == nil {
		st.s.Threads = map[string]Thread{}
	}
	if st.s.Approvals == nil {
		st.s.Approvals = map[string]*PostedApproval{}
	}
	if st.s.Handled == nil {
		st.s.Handled = []string{}
	}
	if st.s.Turns == nil {
		st.s.Turns = []Turn{}
	}
	if st.s.Commands == nil {
		st.s.Commands = []HeldCommand{}
	}
}

func damaged(path, format string, args ...any) error {
	return runbook.Refuse(runbook.GatewayStateDamaged, "%s: "+format, append([]any{path}, args...)...)
}

// Path is the state file.
func (st *Store) Path() string { return st.path }

// Update changes the state with f and writes it; an error writing is
// gateway-state-damaged ("cannot write"), and gatewayd stops on it.
func (st *Store) Update(f func(s *State)) error {
	// One write at a time, each of the whole state as it is when the
	// write begins; readers wait only for the copy, not for the disk.
	st.writeMu.Lock()
	defer st.writeMu.Unlock()
	st.mu.Lock()
	f(&st.s)
	if n := len(st.s.Handled); n > maxHandled {
		st.s.Handled = slices.Clone(st.s.Handled[n-maxHandled:])
	}
	data, err := json.MarshalIndent(&st.s, "", " ")
	st.mu.Unlock()
	if err != nil {
		return damaged(st.path, "cannot write: %v", err)
	}
	if err := atomicfile.WriteFile(st.path, append(data, '\n'), 0o600); err != nil {
		return damaged(st.path, "cannot write: %v", patherror.Reason(err))
	}
	return nil
}

// Touch changes the state in memory only: the change goes to disk with
// the next Update (docs/specs/gateway.md, section 5.2, says why a post
// queued so is safe).
func (st *Store) Touch(f func(s *State)) {
	if st.beforeTouch != nil {
		st.beforeTouch()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	f(&st.s)
}

// Read runs f on the state without changing it.
func (st *Store) Read(f func(s *State)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	f(&st.s)
}

// HandledPost reports whether post id was handled.
func (s *State) HandledPost(id string) bool { return slices.Contains(s.Handled, id) }

// Waiting reports whether post id waits for or is in a turn, or is a
// command held for brokerd.
func (s *State) Waiting(id string) bool {
	return slices.ContainsFunc(s.Turns, func(t Turn) bool { return t.Post == id }) ||
		slices.ContainsFunc(s.Commands, func(c HeldCommand) bool { return c.Post == id })
}

// Held is the command held for the approval id with the call hash.
func (s *State) Held(id, hash string) (HeldCommand, bool) {
	i := slices.IndexFunc(s.Commands, func(c HeldCommand) bool { return c.Approval == id && c.CallHash == hash })
	if i < 0 {
		return HeldCommand{}, false
	}
	return s.Commands[i], true
}

// dropHeld ends the held command of post id: it is handled.
func (s *State) dropHeld(post string) {
	n := len(s.Commands)
	s.Commands = slices.DeleteFunc(s.Commands, func(c HeldCommand) bool { return c.Post == post })
	if len(s.Commands) != n {
		s.Handled = append(s.Handled, post)
	}
}

// RemoveTurn drops the turn of post id.
func (s *State) RemoveTurn(id string) {
	s.Turns = slices.DeleteFunc(s.Turns, func(t Turn) bool { return t.Post == id })
}

// Advance moves a channel's cursor to p when p is newer.
func (s *State) Advance(p Post, channelType string) {
	c := s.Channels[p.ChannelID]
	if p.CreateAt > c.At || (p.CreateAt == c.At && p.ID > c.Post) {
		c.Post, c.At = p.ID, p.CreateAt
	}
	if channelType != "" {
		c.Type = channelType
	}
	s.Channels[p.ChannelID] = c
}

func (st *Store) String() string { return fmt.Sprintf("state %s", st.path) }
