package gateway_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/gateway"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/testpeer/fakemattermost"
)

// killAtReply is a SIGKILL of gatewayd at one of its replies: when it
// posts text (POST /posts), the state file is copied as it is at that
// moment, which is what a kill then leaves; with lost, the post is
// refused too, as a kill before Mattermost had it. Otherwise the reply
// is made, as a kill after Mattermost had it and before gatewayd knew.
type killAtReply struct {
	file  atomic.Value // the state file's path
	text  atomic.Value // the reply's message, "" when not armed
	lost  atomic.Bool
	disk  atomic.Value // []byte: the state file at the kill
	once  sync.Once
	fired chan struct{}
}

func newKillAtReply() *killAtReply { return &killAtReply{fired: make(chan struct{})} }

func (k *killAtReply) options() fakemattermost.Options {
	return fakemattermost.Options{Intercept: k.intercept}
}

// arm has the kill come at gatewayd's next post of text.
func (k *killAtReply) arm(w *world, text string, lost bool) {
	k.file.Store(gateway.StateFile(w.home))
	k.lost.Store(lost)
	k.text.Store(text)
}

func (k *killAtReply) intercept(method, path string, body []byte) int {
	text, _ := k.text.Load().(string)
	if text == "" || method != "POST" || path != "/api/v4/posts" {
		return 0
	}
	var np struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &np) != nil || np.Message != text || !k.text.CompareAndSwap(text, "") {
		return 0
	}
	data, err := os.ReadFile(k.file.Load().(string))
	if err != nil {
		panic(err)
	}
	k.disk.Store(data)
	k.once.Do(func() { close(k.fired) })
	if k.lost.Load() {
		return http.StatusServiceUnavailable
	}
	return 0
}

// killed waits for the kill's moment, stops gatewayd and puts the state
// file back as the kill left it.
func (k *killAtReply) killed(w *world) {
	w.t.Helper()
	select {
	case <-k.fired:
	case <-time.After(10 * time.Second):
		w.t.Fatalf("gatewayd never posted the reply the kill waits for:\n%s", w.log)
	}
	w.stop()
	if err := os.WriteFile(gateway.StateFile(w.home), k.disk.Load().([]byte), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// checkOneReply checks that the bot's posts in the thread of post are
// the one reply want, carrying boxmaker_reply_to = post.
func (w *world) checkOneReply(post fakemattermost.Post, want string) {
	w.t.Helper()
	root := post.RootID
	if root == "" {
		root = post.ID
	}
	ps := w.botPosts(root)
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.Message)
	}
	if len(ps) != 1 || ps[0].Message != want || ps[0].Props[gateway.PropReplyTo] != post.ID {
		w.t.Errorf("the bot's posts in the thread: %q, want the one reply %q (boxmaker_reply_to %s)\nlog:\n%s", msgs, want, post.ID, w.log)
	}
}

var killMoments = []struct {
	name string
	lost bool
}{
	{"killed before Mattermost had the reply", true},
	{"killed after Mattermost had the reply", false},
}

// A command's own reply (here: no such approval in the thread) is made
// before the post is recorded as handled, so a kill on either side of the
// reply's POST leaves exactly one: the next gatewayd catches the command
// up again and, finding its reply in the thread, does not reply twice.
func TestACommandsReplyIsMadeOnceAcrossAKill(t *testing.T) {
	for _, m := range killMoments {
		t.Run(m.name, func(t *testing.T) {
			k := newKillAtReply()
			w := newWorld(t, k.options())
			w.start()
			const want = "no approval zzz777 is pending in this thread"
			k.arm(w, want, m.lost)
			cmd := w.ownerSays("!approve zzz777")
			k.killed(w)
			w.start()
			w.waitFor("the command handled on disk", func() bool { st := w.state(); return st.HandledPost(cmd.ID) })
			w.checkOneReply(cmd, want)
		})
	}
	// A user's post in the thread that carries the prop is not the bot's
	// reply: the command is still answered.
	t.Run("killed before Mattermost had the reply, with a user's post that claims to be it", func(t *testing.T) {
		k := newKillAtReply()
		w := newWorld(t, k.options())
		w.start()
		const want = "no approval zzz777 is pending in this thread"
		k.arm(w, want, true)
		cmd := w.ownerSays("!approve zzz777")
		k.killed(w)
		ann := &gateway.Client{URL: w.mm.URL, Token: w.ownerToken, HTTP: gateway.NewHTTPClient(nil, 5*time.Second)}
		// Addressed to another bot, so that this one leaves it alone.
		if _, err := ann.CreatePost(context.Background(), gateway.NewPost{ChannelID: cmd.ChannelID, RootID: cmd.ID,
			Message: "@bob !approve zzz777", Props: map[string]any{gateway.PropReplyTo: cmd.ID}}); err != nil {
			t.Fatal(err)
		}
		w.start()
		w.waitFor("the command handled on disk", func() bool { st := w.state(); return st.HandledPost(cmd.ID) })
		w.checkOneReply(cmd, want)
	})
}

// A held command no courier comes for is answered before it is dropped:
// a kill at the reply leaves it held, and the next gatewayd's sweep, or
// the courier that comes back, finds the reply and ends it without a
// second reply and without handing it over.
func TestAHeldCommandsDropIsAnsweredOnceAcrossAKill(t *testing.T) {
	const want = "approval abc234: gatewayd was stopped after it took this answer, " +
		"and brokerd has not said how the approval ended: bxctl approvals shows whether it still waits, " +
		"and brokerd's audit log whether this answer was recorded"
	for _, m := range killMoments {
		for _, courier := range []bool{false, true} {
			name := m.name + ", then swept again"
			if courier {
				name = m.name + ", then the courier comes back"
			}
			t.Run(name, func(t *testing.T) {
				k := newKillAtReply()
				w := newWorld(t, k.options())
				var mu sync.Mutex
				offset := time.Duration(0)
				setOffset := func(d time.Duration) { mu.Lock(); offset = d; mu.Unlock() }
				w.now = func() time.Time {
					mu.Lock()
					defer mu.Unlock()
					return time.Now().Add(offset)
				}
				w.start()
				p, _, _ := w.approvalInDM("abc234")
				cmd := w.ownerSays("!refuse abc234 not now")
				w.waitForHeld(cmd)
				w.stop()
				w.start()
				k.arm(w, want, m.lost)
				setOffset(31 * time.Second)
				k.killed(w)
				w.start() // its start is 31 s ahead: the command is a stopped gatewayd's again
				if courier {
					w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: p}, nil)
					var ans gatewaywire.Answered
					w.call(gatewaywire.KindApprovalWait, gatewaywire.Wait{ID: p.ID, CallHash: p.CallHash, WaitMS: 50}, &ans)
					if m.lost && ans.Command != cmd.ID {
						t.Errorf("the command never answered was not handed over: %+v", ans)
					}
					if !m.lost {
						if ans.Answer != "" {
							t.Errorf("the command answered %q was handed over after all: %+v", want, ans)
						}
						if st := w.state(); len(st.Commands) != 0 || !st.HandledPost(cmd.ID) {
							t.Errorf("the command answered is still held: %+v", st.Commands)
						}
						w.checkOneReply(cmd, want)
					}
					return
				}
				setOffset(65 * time.Second)
				w.waitFor("the command dropped on disk", func() bool {
					st := w.state()
					return len(st.Commands) == 0 && st.HandledPost(cmd.ID)
				})
				w.checkOneReply(cmd, want)
			})
		}
	}
}

// How an approval ended is replied to its command before the command is
// ended on disk, and a settle told again (brokerd's courier tries again
// while gatewayd restarts) after a kill at the reply finds it in the
// thread: one reply, in both of the settle's branches.
func TestASettleIsRepliedOnceAcrossAKill(t *testing.T) {
	for _, tt := range []struct {
		name    string
		outcome string
		text    string
		want    string
	}{
		{"approved", gatewaywire.OutcomeApproved, "", "approval abc234 approved by mattermost @ann"},
		{"the answer came too late", gatewaywire.OutcomeNotPending, "no approval abc234 is pending (it was refused with bxctl)",
			"approval abc234: no approval abc234 is pending (it was refused with bxctl)"},
	} {
		for _, m := range killMoments {
			t.Run(tt.name+", "+m.name, func(t *testing.T) {
				k := newKillAtReply()
				w := newWorld(t, k.options())
				w.start()
				p, _, _ := w.approvalInDM("abc234")
				cmd := w.ownerSays("!approve abc234")
				w.waitForHeld(cmd)
				settle := gatewaywire.Settle{ID: p.ID, CallHash: p.CallHash, Outcome: tt.outcome, By: "mattermost @ann",
					Command: cmd.ID, Text: tt.text}
				k.arm(w, tt.want, m.lost)
				w.call(gatewaywire.KindApprovalSettle, settle, nil)
				k.killed(w)
				w.start()
				w.call(gatewaywire.KindApprovalSettle, settle, nil)
				if st := w.state(); len(st.Commands) != 0 || !st.HandledPost(cmd.ID) {
					t.Errorf("after the settle told again: commands %+v", st.Commands)
				}
				w.checkOneReply(cmd, tt.want)
			})
		}
	}
}
