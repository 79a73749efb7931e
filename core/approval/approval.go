// Package approval is a pending approval as it leaves brokerd, and the one
// way it is shown to the owner: a summary line (bxctl approvals) and the
// whole call (bxctl approvals show ID; later the Mattermost approval post).
// Both are written for an owner who is about to let something run: they
// show what will run (run's command words, write_file's size, SHA-256 and
// text, http_fetch's URL, memory's actions), read from the arguments the
// way brokerd reads them (Arguments), and every piece that came from the
// model is escaped (core/termsafe) so that nothing in it can act on the
// terminal or draw a line of its own.
package approval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"boxmaker/core/memory"
	"boxmaker/core/yaagwire"
)

// Pending is an approval waiting for the owner, as brokerd's admin socket
// lists it.
type Pending struct {
	ID      string `json:"id"`
	Call    string `json:"call"`
	Session string `json:"session"`
	Tool    string `json:"tool"`
	Target  string `json:"target"` // the resolved target(s) the decision named
	Grant   string `json:"grant"`
	// CallHash is the SHA-256 of the exact call (session, call id, tool,
	// arguments) that the approval answers.
	CallHash string `json:"call_sha256"`
	// Arguments is the call's arguments as compact JSON text (Compact),
	// carried as a string so that no encoder on the way changes a byte;
	// ArgumentsHash is its SHA-256, as the approval_requested record has
	// it.
	Arguments     string    `json:"arguments"`
	ArgumentsHash string    `json:"arguments_sha256"`
	Requested     time.Time `json:"requested"`
	Expires       time.Time `json:"expires"`
	// Program is, for a yaag_run, what the Run will read: every file of
	// its directory that it reads (the program, its imports, .yaag/ and
	// the Registry File's modules), each with its SHA-256, and the
	// SHA-256 over them that the approved Run must read again or refuse.
	Program *yaagwire.Manifest `json:"program,omitempty"`
	// Change is, for a write_file, what it changes: a new file, or the
	// diff against the file as brokerd read it when it asked.
	Change *Change `json:"change,omitempty"`
}

// The answers to a pending approval: the owner's with bxctl on brokerd's
// admin socket (brokerwire.ApprovalAnswer), an approver's in Mattermost
// on gateway.sock (gatewaywire.Answered).
const (
	Approve = "approve"
	Refuse  = "refuse"
)

// Arguments are a call's arguments as brokerd reads them: only the fields
// of its tool. Anything else the model writes (a grant name, a taint) is
// not read by brokerd; the full rendering lists it as not used.
type Arguments struct {
	Path    string          `json:"path"`
	Content *string         `json:"content"`
	Command []string        `json:"command"`
	Paths   []string        `json:"paths"`
	URL     string          `json:"url"`
	Actions []memory.Action `json:"actions"` // memory's steps, as memoryd reads them
	Query   string          `json:"query"`
	Limit   int             `json:"limit"`
	// yaag_run, yaag_status, yaag_stop, yaag_pause (Dir: yaag_setup_workspace's too)
	File     string          `json:"file"`
	Script   *string         `json:"script"`
	Dir      string          `json:"dir"`
	Input    json.RawMessage `json:"input"`
	Profile  string          `json:"profile"`
	ForkHost bool            `json:"forkHost"`
	ID       string          `json:"id"`
}

// Compact is raw with the spaces outside strings removed and nothing else
// changed: the form Pending carries and ArgumentsHash hashes. Text that is
// not JSON is returned as it is.
func Compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// ArgumentsHash is the SHA-256, in hex, of Compact(raw).
func ArgumentsHash(raw []byte) string { return SHA256([]byte(Compact(raw))) }

// SHA256 is the hex SHA-256 of b (write_file's content hash, for one).
func SHA256(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
