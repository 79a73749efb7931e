// Package approval makes a pending approval's pieces (the arguments'
// compact text and hash, a write_file's Change) and is the one way a
// pending approval (core/brokerwire's Pending, as brokerd's admin socket
// and gateway.sock carry it) is shown to the owner: a summary line (bxctl approvals) and the
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

	"boxmaker/core/memorywire"
)

// Arguments are a call's arguments as brokerd reads them: only the fields
// of its tool. Anything else the model writes (a grant name, a taint) is
// not read by brokerd; the full rendering lists it as not used.
type Arguments struct {
	Path    string              `json:"path"`
	Content *string             `json:"content"`
	Command []string            `json:"command"`
	Paths   []string            `json:"paths"`
	URL     string              `json:"url"`
	Actions []memorywire.Action `json:"actions"` // memory's steps, as memoryd reads them
	Query   string              `json:"query"`
	Limit   int                 `json:"limit"`
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
// changed: the form brokerwire.Pending carries and ArgumentsHash hashes. Text that is
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
