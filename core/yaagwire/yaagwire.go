// Package yaagwire is what a client of a yaag Run needs of it, and what
// brokerd's yaag_run needs: the Run's command line (Command), its record
// and where a home keeps it (Record, Store), the events it prints and how
// it ends (Event, End), its Control Channel's requests and answers (Call),
// the manifest of the files a confined Run read (Manifest), and the
// inline program's limit (CheckInline). It links no engine: no goja, no
// esbuild, no Cassette code. yaag's own packages (core/yaag/...) keep
// these names as aliases of these, so that both sides read one
// definition.
package yaagwire

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textInlineTooLarge runbook.Quoted = "yaag_run: script is too large"
	textChanged        runbook.Quoted = "changed after the owner approved it"
)

// End statuses.
const (
	EndCompleted   = "completed"
	EndFailed      = "failed"
	EndStopped     = "stopped"
	EndPaused      = "paused"
	EndInterrupted = "interrupted"
)

var runIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^r-[0-9]{8}-[0-9]{6}-[0-9a-f]{8}$`) })

// ValidRunID reports whether s is a Run's id.
func ValidRunID(s string) bool { return runIDRE().MatchString(s) }

// Question is one request_user_input call of a paused Ask.
type Question struct {
	Key      string `json:"key"` // A<k>/<n>/q<m>
	Agent    string `json:"agent,omitempty"`
	N        int    `json:"n,omitempty"`
	CallID   string `json:"callId"` // the model's call id: where the answer goes, never the key
	Question string `json:"question"`
}

// Resume says how to continue a paused Run.
type Resume struct {
	AnswersTemplate map[string]string `json:"answersTemplate"`
	Command         string            `json:"command"`
}

// Event is one thing that happened in a Run, for --json and the log.
type Event struct {
	Event   string          `json:"event"`
	Run     string          `json:"run,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	Ask     string          `json:"ask,omitempty"`
	Name    string          `json:"definition,omitempty"`
	Session string          `json:"session,omitempty"`
	Hash    string          `json:"hash,omitempty"`
	Status  string          `json:"status,omitempty"`
	Text    string          `json:"text,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	Outcome string          `json:"outcome,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// The events of a Run (docs/json.md, "yaag run --json"), one JSON line
// each: yaag run --json and yaag reattach print them, and brokerd's
// yaag_run reads them from the Run it started. An Ask's tool calls and
// results, questions and model fallbacks come under the names its Agent
// gave them (agent.Event.Kind).
const (
	EventRunStart = "run_start"
	EventSpawn    = "spawn"
	EventSpawned  = "spawned"
	EventAsk      = "ask"
	EventReplayed = "replayed"
	EventLive     = "live"
	EventAnswer   = "answer"
	EventWithheld = "withheld"
	EventUnused   = "unused"
	EventLog      = "log"
	EventRunEnd   = "run_end" // the last: End
	// EventSuccessor is yaag reattach --successor going on to the Run
	// that resumed the one it followed (runs.Follow).
	EventSuccessor = "successor"
)

// End is the run_end event: how the Run ended.
type End struct {
	Event          string          `json:"event"` // run_end
	Run            string          `json:"run"`
	Status         string          `json:"status"` // completed, failed, stopped, paused
	Result         json.RawMessage `json:"result,omitempty"`
	Error          string          `json:"error,omitempty"`
	Cassette       string          `json:"cassette,omitempty"`
	Checkpoint     string          `json:"checkpoint,omitempty"`
	CheckpointLost bool            `json:"checkpointLost"`
	Questions      []Question      `json:"questions,omitempty"`
	Resume         *Resume         `json:"resume,omitempty"`
	Unused         []string        `json:"unused,omitempty"`
}

// Err is the Run's error, when it failed.
func (e End) Err() error {
	if e.Error == "" {
		return nil
	}
	return errors.New(e.Error)
}

// MaxInline is the largest inline program (--eval, --eval-fd, yaag_run's
// script), in bytes.
const MaxInline = 65536

// CheckInline refuses an inline program over MaxInline bytes. It is the
// first check an inline program gets.
func CheckInline(src []byte) error {
	if len(src) > MaxInline {
		return runbook.Refuse(runbook.YaagInlineLimits, "%s: an inline program is at most %d bytes (64 KiB), and this one is larger; write it to a file and run the file",
			textInlineTooLarge, MaxInline)
	}
	return nil
}

// Manifest is what a Run read: its files, each with its SHA-256, and one
// SHA-256 over the list (Sum).
type Manifest struct {
	Dir    string    `json:"dir"`
	SHA256 string    `json:"sha256"`
	Files  []FileSum `json:"files"`
}

// FileSum is one file a Run read.
type FileSum struct {
	Path   string `json:"path"` // beneath Dir
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Sum is the SHA-256 of the lines "<sha256>  <path>\n" of m's files in
// their order (sha256sum's form, so that an owner can check it with
// sha256sum in the directory).
func (m Manifest) Sum() string {
	var b strings.Builder
	for _, f := range m.Files {
		fmt.Fprintf(&b, "%s  %s\n", f.SHA256, f.Path)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Check refuses a Manifest whose hash is not approved: the files a Run
// read are not those the owner approved.
func (m Manifest) Check(approved string) error {
	if m.SHA256 == approved {
		return nil
	}
	return runbook.Refuse(runbook.YaagProgramChanged, "the program's files in %s %s: the approval was for files of sha256 %s, and the Run read files of sha256 %s (%d files); nothing ran",
		m.Dir, textChanged, approved, m.SHA256, len(m.Files))
}
