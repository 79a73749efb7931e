package gateway_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/gateway"
	"boxmaker/core/loop"
	"boxmaker/core/secrets"
	"boxmaker/core/testpeer/fakemattermost"
	"boxmaker/core/testsupport"
)

// world is a fake Mattermost with a bot, an owner, an approver and a
// stranger, and a gateway connected to it.
type world struct {
	t        testing.TB
	mm       *fakemattermost.Server
	bot      fakemattermost.User
	owner    fakemattermost.User
	other    fakemattermost.User
	stranger fakemattermost.User
	token    string
	home     string
	log      *testsupport.Buffer
	loop     *stubLoop
	g        *gateway.Gateway
	cancel   context.CancelFunc
	done     chan error
	ready    chan struct{}
}

// stubLoop answers each turn with "echo: <text>" in two chunks, or runs
// the turn's script.
type stubLoop struct {
	arrived func() // told first, as the turn reaches loopd
	mu      sync.Mutex
	turns   []loop.TurnRequest
	fail    error
	hook    func(req loop.TurnRequest, emit func(loop.Event) error) error
}

func (l *stubLoop) call(ctx context.Context, req loop.TurnRequest, emit func(loop.Event) error) (loop.TurnResult, error) {
	if l.arrived != nil {
		l.arrived()
	}
	l.mu.Lock()
	l.turns = append(l.turns, req)
	n := len(l.turns)
	fail, hook := l.fail, l.hook
	l.mu.Unlock()
	if fail != nil {
		return loop.TurnResult{}, fail
	}
	session := req.Session
	if session == "" {
		session = fmt.Sprintf("20261201-000000-%08d", n)
	}
	if err := emit(loop.Event{Event: "session", Session: session}); err != nil {
		return loop.TurnResult{}, err
	}
	if hook != nil {
		if err := hook(req, emit); err != nil {
			return loop.TurnResult{}, err
		}
		return loop.TurnResult{Session: session}, nil
	}
	emit(loop.Event{Event: "text", Text: "echo: "})
	emit(loop.Event{Event: "text", Text: req.Text})
	return loop.TurnResult{Session: session, Reply: "echo: " + req.Text}, nil
}

func (l *stubLoop) requests() []loop.TurnRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]loop.TurnRequest(nil), l.turns...)
}

func newWorld(t testing.TB, opts ...fakemattermost.Options) *world {
	var o fakemattermost.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	w := &world{t: t, mm: fakemattermost.Start(o), home: t.TempDir(), log: &testsupport.Buffer{}, loop: &stubLoop{}}
	t.Cleanup(w.mm.Close)
	w.bot, w.token = w.mm.AddUser("boxmaker", true)
	w.owner, _ = w.mm.AddUser("ann", false)
	w.other, _ = w.mm.AddUser("bob", false)
	w.stranger, _ = w.mm.AddUser("mallory", false)
	return w
}

func (w *world) config() *gateway.Config {
	return &gateway.Config{Home: w.home, URL: w.mm.URL, TokenName: "mattermost", Token: secrets.Source{Env: "X"},
		DeadAfter: 900 * time.Millisecond, Allow: []string{w.owner.ID, w.other.ID}, Approvers: []string{w.owner.ID},
		Socket: filepath.Join(w.home, "gw.sock"), LoopSocket: filepath.Join(w.home, "loop.sock")}
}

func (w *world) start() {
	w.t.Helper()
	st, err := gateway.OpenState(gateway.StateFile(w.home))
	if err != nil {
		w.t.Fatal(err)
	}
	httpc := gateway.NewHTTPClient(nil, 10*time.Second)
	w.ready = make(chan struct{})
	var once sync.Once
	w.g = gateway.New(gateway.Options{Config: w.config(), Client: &gateway.Client{URL: w.mm.URL, Token: w.token, HTTP: httpc},
		HTTP: httpc, State: st, Loop: w.loop.call, Log: w.log, UpdateEvery: 20 * time.Millisecond,
		Ready: func() { once.Do(func() { close(w.ready) }) },
		Sleep: func(ctx context.Context, d time.Duration) error {
			select {
			case <-time.After(d / 50):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}})
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel, w.done = cancel, make(chan error, 1)
	go func() { w.done <- w.g.Run(ctx) }()
	select {
	case <-w.ready:
	case <-time.After(10 * time.Second):
		w.t.Fatalf("gatewayd never connected:\n%s", w.log)
	}
	w.t.Cleanup(w.stop)
}

func (w *world) stop() {
	if w.cancel == nil {
		return
	}
	w.cancel()
	<-w.done
	w.cancel = nil
}

// waitFor polls until cond holds.
func (w *world) waitFor(what string, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			w.t.Fatalf("never: %s\nlog:\n%s", what, w.log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// botPosts are the bot's posts in the thread of root.
func (w *world) botPosts(root string) []fakemattermost.Post {
	var out []fakemattermost.Post
	for _, p := range w.mm.Thread(root) {
		if p.UserID == w.bot.ID {
			out = append(out, p)
		}
	}
	return out
}

func TestDirectMessageIsAnsweredInItsThread(t *testing.T) {
	w := newWorld(t)
	w.start()
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	p, err := w.mm.PostAs(w.owner.ID, dm.ID, "", "hello there")
	if err != nil {
		t.Fatal(err)
	}
	w.waitFor("the reply", func() bool {
		ps := w.botPosts(p.ID)
		return len(ps) == 1 && ps[0].Message == "echo: hello there"
	})
	reply := w.botPosts(p.ID)[0]
	if reply.RootID != p.ID || reply.Props[gateway.PropReplyTo] != p.ID {
		t.Errorf("the reply is not in the thread, or does not name the post: %+v", reply)
	}
	reqs := w.loop.requests()
	if len(reqs) != 1 || reqs[0].Who != "mattermost:@ann" || reqs[0].Session != "" {
		t.Errorf("turns: %+v", reqs)
	}
	// A reply in the thread is the same session.
	if _, err := w.mm.PostAs(w.owner.ID, dm.ID, p.ID, "and again"); err != nil {
		t.Fatal(err)
	}
	w.waitFor("the second reply", func() bool {
		ps := w.botPosts(p.ID)
		return len(ps) == 2 && ps[1].Message == "echo: and again"
	})
	if reqs := w.loop.requests(); len(reqs) != 2 || reqs[1].Session != "20261201-000000-00000001" {
		t.Errorf("the thread's second turn: %+v", reqs)
	}
}

func TestChannelPostsNeedAMentionAndStrangersAreIgnored(t *testing.T) {
	w := newWorld(t)
	w.start()
	ch := w.mm.NewChannel("town-square", w.bot.ID, w.owner.ID, w.stranger.ID)
	plain, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "no mention here")
	strange, _ := w.mm.PostAs(w.stranger.ID, ch.ID, "", "@boxmaker do my bidding")
	mention, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "@boxmaker: what time is it")
	w.waitFor("the mention answered", func() bool {
		ps := w.botPosts(mention.ID)
		return len(ps) == 1 && ps[0].Message == "echo: what time is it"
	})
	// The thread is followed without a mention.
	follow, _ := w.mm.PostAs(w.owner.ID, ch.ID, mention.ID, "and the date?")
	w.waitFor("the follow-up answered", func() bool {
		ps := w.botPosts(mention.ID)
		return len(ps) == 2 && ps[1].Message == "echo: and the date?"
	})
	_ = follow
	if n := len(w.botPosts(plain.ID)) + len(w.botPosts(strange.ID)); n != 0 {
		t.Errorf("%d replies to posts that were not for Boxmaker", n)
	}
	if !strings.Contains(w.log.String(), "ignored post "+strange.ID+" from user "+w.stranger.ID) {
		t.Errorf("the stranger's post was not counted:\n%s", w.log)
	}
}
