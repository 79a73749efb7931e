package broker

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"boxmaker/core/brokerwire"
)

// Pending is an approval waiting for the owner, as bxctl approvals lists
// it (core/approval renders it).
type Pending = brokerwire.Pending

// answer is what an approval brings to its waiting call.
type answer struct {
	approved bool
	by, why  string
	callHash string // the hash of the call the owner answered
	err      error  // the answer could not be recorded
}

type pending struct {
	Pending
	ch chan answer // buffered: the answerer never waits
	// withdrawn: the caller went before an answer (ask took it out).
	withdrawn bool
}

// approvals are the pending approvals by id. Whoever takes an approval
// out of the map (an answer, the expiry, the stop) is the only one to
// record what became of it.
type approvals struct {
	mu   sync.Mutex
	byID map[string]*pending
}

// add registers a pending approval under a fresh short id.
func (a *approvals) add(p Pending) *pending {
	a.mu.Lock()
	defer a.mu.Unlock()
	for {
		p.ID = shortID()
		if _, taken := a.byID[p.ID]; !taken {
			break
		}
	}
	e := &pending{Pending: p, ch: make(chan answer, 1)}
	a.byID[p.ID] = e
	return e
}

// take removes the approval id and reports whether it was still pending.
func (a *approvals) take(id string) (*pending, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.byID[id]
	if ok {
		delete(a.byID, id)
	}
	return p, ok
}

// get is the approval id while it is pending.
func (a *approvals) get(id string) (Pending, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.byID[id]
	if !ok {
		return Pending{}, false
	}
	return p.Pending, true
}

// notPending is the answer for an id that is not pending.
func notPending(id string) error {
	return fmt.Errorf("no approval %q is pending: it was answered, it expired, or it never was (bxctl approvals lists those that wait)", id)
}

func (a *approvals) list() []Pending {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Pending, 0, len(a.byID))
	for _, p := range a.byID {
		out = append(out, p.Pending)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Requested.Equal(out[j].Requested) {
			return out[i].Requested.Before(out[j].Requested)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// shortID is six characters an operator can type: 30 random bits.
func shortID() string {
	var b [4]byte
	rand.Read(b[:])
	return idEncoding.EncodeToString(b[:])[:6]
}

// CallHash is the SHA-256 of the exact call: its session, call id, tool
// and arguments (compacted, keys as the model wrote them). An approval is
// bound to it.
func CallHash(c brokerwire.ToolCall) string {
	h := sha256.New()
	fmt.Fprintf(h, "boxmaker tool call v1\x00%s\x00%s\x00%s\x00", c.Session, c.CallID, c.Tool)
	var compact strings.Builder
	if raw := []byte(c.Arguments); len(raw) > 0 {
		var buf = new(strings.Builder)
		if err := compactJSON(buf, raw); err == nil {
			compact.WriteString(buf.String())
		} else {
			compact.Write(raw)
		}
	}
	h.Write([]byte(compact.String()))
	return hex.EncodeToString(h.Sum(nil))
}

func compactJSON(w *strings.Builder, raw []byte) error {
	var v json.RawMessage
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	out, err := json.Marshal(v) // json.RawMessage marshals compacted
	if err != nil {
		return err
	}
	w.Write(out)
	return nil
}
