package gateway_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/gateway"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/testpeer/fakemattermost"
)

// cursorPassesUnrecorded lists the posts of channel that the state's
// cursor there has passed (or reached) while the state has them neither
// queued, held nor handled: what a kill at that moment would lose, since
// the next gatewayd catches up from the cursor (docs/specs/gateway.md 5.2).
func cursorPassesUnrecorded(st gateway.State, channel string, posts ...fakemattermost.Post) []string {
	cur, ok := st.Channels[channel]
	if !ok {
		return nil
	}
	var lost []string
	for _, p := range posts {
		passed := cur.At > p.CreateAt || cur.At == p.CreateAt && cur.Post >= p.ID
		if passed && !st.HandledPost(p.ID) && !st.Waiting(p.ID) {
			lost = append(lost, fmt.Sprintf("%q (post %s; the cursor is at %s)", p.Message, p.ID, cur.Post))
		}
	}
	return lost
}

// diskStates has each in-memory change of the gateway's state preceded by
// a write of the whole state (as any goroutine's Update may come at that
// moment), and returns what the file held after each such write.
func (w *world) diskStates() func() []gateway.State {
	var mu sync.Mutex
	var seen []gateway.State
	w.touched = func(st *gateway.Store) {
		if err := st.Update(func(*gateway.State) {}); err != nil {
			panic(err)
		}
		data, err := os.ReadFile(st.Path())
		var s gateway.State
		if err == nil {
			err = json.Unmarshal(data, &s)
		}
		if err != nil {
			panic(err)
		}
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
	}
	return func() []gateway.State {
		mu.Lock()
		defer mu.Unlock()
		return append([]gateway.State(nil), seen...)
	}
}

// A post's turn is queued in memory, and the channel's cursor moves past
// it in that same change: a write of the state by another goroutine just
// before (a turn of another thread ending, the sweeper, the courier), and
// a kill just after, leave the post behind the cursor on disk, to be
// read again, whether it came live or was caught up over REST.
func TestTheCursorOnDiskNeverPassesATurnNotOnDisk(t *testing.T) {
	w := newWorld(t)
	states := w.diskStates()
	w.start()
	live := w.ownerSays("hello live")
	w.waitForReplies("the live post answered", live.ID, "echo: hello live")
	// Its turn ended (a stop before that cuts the reply short, with the note).
	w.waitFor("the live post handled on disk", func() bool { st := w.state(); return st.HandledPost(live.ID) })
	w.stop()
	away := w.ownerSays("hello while away")
	reply, err := w.mm.PostAs(w.owner.ID, live.ChannelID, live.ID, "hello again while away")
	if err != nil {
		t.Fatal(err)
	}
	w.start()
	w.waitForReplies("the first caught up", away.ID, "echo: hello while away")
	w.waitForReplies("the second caught up", live.ID, "echo: hello live", "echo: hello again while away")
	got := states()
	if len(got) == 0 {
		t.Fatal("the state never changed in memory")
	}
	for i, st := range got {
		if lost := cursorPassesUnrecorded(st, live.ChannelID, live, away, reply); len(lost) > 0 {
			t.Errorf("write %d of %d: a kill then loses %v", i+1, len(got), lost)
		}
	}
}

// An approver's command caught up over REST has no sender name, so
// gatewayd asks GET /users/{id} before it holds the command. A write of
// the state meanwhile (here the courier posting another approval) must
// not carry the cursor past the command: a kill then would lose the
// answer (D451).
func TestTheCursorOnDiskNeverPassesACommandNotOnDisk(t *testing.T) {
	var holdPath atomic.Value // the request to hold, once
	entered, release := make(chan struct{}), make(chan struct{})
	w := newWorld(t, fakemattermost.Options{Before: func(method, path string) {
		if p, _ := holdPath.Load().(string); p != "" && method == "GET" && path == p && holdPath.CompareAndSwap(p, "") {
			close(entered)
			<-release
		}
	}})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the server closes: it waits for the held request
	w.start()
	p, dm, _ := w.approvalInDM("abc234")
	w.stop()
	cmd := w.ownerSays("!approve abc234")
	holdPath.Store("/api/v4/users/" + w.owner.ID)
	w.start()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatalf("gatewayd never asked for the approver's name:\n%s", w.log)
	}
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: w.pending("def567")}, nil)
	if lost := cursorPassesUnrecorded(w.state(), dm.ID, cmd); len(lost) > 0 {
		t.Errorf("while the name was asked, the file held the cursor past the command: a kill then loses %v", lost)
	}
	let()
	var st gateway.State
	w.waitFor("the command held on disk", func() bool {
		st = w.state()
		_, ok := st.Held(p.ID, p.CallHash)
		return ok
	})
	if held, _ := st.Held(p.ID, p.CallHash); held.Post != cmd.ID || held.By != "mattermost @ann (user "+w.owner.ID+")" {
		t.Errorf("the command held: %+v", held)
	}
	if c := st.Channels[dm.ID]; c.At < cmd.CreateAt {
		t.Errorf("the cursor %+v is behind the held command (at %d)", c, cmd.CreateAt)
	}
}

// A kill just after a turn's placeholder is posted leaves the state file
// as it was before (the turn was queued in memory): the next gatewayd
// must still find the post, or the placeholder is never answered. In a DM
// the catch-up reads it again; in a channel the catch-up reads only the
// channels with a thread on disk, so the first thread of a channel is
// written before its placeholder.
func TestAPostWhosePlaceholderWasMadeIsFoundAfterAKill(t *testing.T) {
	for _, tt := range []struct {
		name    string
		channel func(w *world) fakemattermost.Channel
		text    string
	}{
		{"a DM", func(w *world) fakemattermost.Channel { return w.mm.DM(w.bot.ID, w.owner.ID) }, "hello there"},
		{"a channel Boxmaker has no thread in yet", func(w *world) fakemattermost.Channel {
			return w.mm.NewChannel("town-square", w.bot.ID, w.owner.ID)
		}, "@boxmaker hello there"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var disk atomic.Value // the state file as the placeholder was posted
			var path atomic.Value
			w := newWorld(t, fakemattermost.Options{Before: func(method, p string) {
				if file, _ := path.Load().(string); file != "" && method == "POST" && p == "/api/v4/posts" && disk.Load() == nil {
					data, err := os.ReadFile(file)
					if err != nil {
						panic(err)
					}
					disk.Store(data)
				}
			}})
			w.start()
			ch := tt.channel(w)
			path.Store(gateway.StateFile(w.home))
			p, err := w.mm.PostAs(w.owner.ID, ch.ID, "", tt.text)
			if err != nil {
				t.Fatal(err)
			}
			w.waitForReplies("the reply", p.ID, "echo: hello there")
			w.stop()
			// What a SIGKILL right after the placeholder would have left.
			if err := os.WriteFile(gateway.StateFile(w.home), disk.Load().([]byte), 0o600); err != nil {
				t.Fatal(err)
			}
			w.start()
			w.waitForReplies("the reply marked cut short by the kill", p.ID,
				"echo: hello there\n\n_(gatewayd was stopped while writing this reply, so it may be incomplete; send the message again for a whole answer)_")
			w.waitFor("the post handled on disk", func() bool { st := w.state(); return st.HandledPost(p.ID) })
			if n := len(w.loop.requests()); n != 1 {
				t.Errorf("loopd was sent %d turns, want 1", n)
			}
		})
	}
}
