package gateway_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/gateway"
	"boxmaker/core/loopwire"
	"boxmaker/core/secrets"
	"boxmaker/core/testpeer/fakemattermost"
	"boxmaker/core/testsupport"
	"boxmaker/runbook"
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
	// ownerToken is ann's, for what she does over REST (an edit).
	ownerToken string
	home       string
	log        *testsupport.Buffer
	loop       *stubLoop
	g          *gateway.Gateway
	cancel     context.CancelFunc
	done       chan error
	ready      chan struct{}
	roots      *x509.CertPool // the CA the gateway trusts (nil: the system's)
	// base is the URL the gateway is given for Mattermost (empty: the
	// fake's own).
	base string
	// now is the gateway's clock (nil: the real one).
	now func() time.Time
	// st is the running gateway's state.
	st *gateway.Store
	// touched, when set, is called as each in-memory change of the state
	// begins (gateway.BeforeTouch).
	touched func(st *gateway.Store)
	// taints are brokerd's sessions' taints as its state socket would
	// answer (public when not named); taintErr, when set, its failure.
	taintMu  sync.Mutex
	taints   map[string]string
	taintErr error
}

// setTaint is brokerd raising session's taint.
func (w *world) setTaint(session, taint string) {
	w.taintMu.Lock()
	defer w.taintMu.Unlock()
	if w.taints == nil {
		w.taints = map[string]string{}
	}
	w.taints[session] = taint
}

func (w *world) sessionState(_ context.Context, session string) (string, error) {
	w.taintMu.Lock()
	defer w.taintMu.Unlock()
	if w.taintErr != nil {
		return "", w.taintErr
	}
	if t, ok := w.taints[session]; ok {
		return t, nil
	}
	return "public", nil
}

// stubLoop answers each turn with "echo: <text>" in two chunks, or runs
// the turn's script.
type stubLoop struct {
	arrived func() // told first, as the turn reaches loopd
	mu      sync.Mutex
	turns   []loopwire.TurnRequest
	fail    error
	hook    func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error
}

func (l *stubLoop) call(ctx context.Context, req loopwire.TurnRequest, emit func(loopwire.Event) error) (loopwire.TurnResult, error) {
	if l.arrived != nil {
		l.arrived()
	}
	l.mu.Lock()
	l.turns = append(l.turns, req)
	n := len(l.turns)
	fail, hook := l.fail, l.hook
	l.mu.Unlock()
	if fail != nil {
		return loopwire.TurnResult{}, fail
	}
	session := req.Session
	if session == "" {
		session = fmt.Sprintf("20261201-000000-%08d", n)
	}
	if err := emit(loopwire.Event{Event: loopwire.EventSession, Session: session}); err != nil {
		return loopwire.TurnResult{}, err
	}
	if hook != nil {
		if err := hook(req, emit); err != nil {
			return loopwire.TurnResult{}, err
		}
		return loopwire.TurnResult{Session: session}, nil
	}
	emit(loopwire.Event{Event: loopwire.EventText, Text: "echo: "})
	emit(loopwire.Event{Event: loopwire.EventText, Text: req.Text})
	return loopwire.TurnResult{Session: session, Reply: "echo: " + req.Text}, nil
}

func (l *stubLoop) requests() []loopwire.TurnRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]loopwire.TurnRequest(nil), l.turns...)
}

func newWorld(t testing.TB, opts ...fakemattermost.Options) *world {
	var o fakemattermost.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	w := &world{t: t, mm: fakemattermost.Start(o), home: t.TempDir(), log: &testsupport.Buffer{}, loop: &stubLoop{}}
	t.Cleanup(w.mm.Close)
	w.bot, w.token = w.mm.AddUser("boxmaker", true)
	w.owner, w.ownerToken = w.mm.AddUser("ann", false)
	w.other, _ = w.mm.AddUser("bob", false)
	w.stranger, _ = w.mm.AddUser("mallory", false)
	return w
}

// url is the Mattermost URL the gateway is given.
func (w *world) url() string {
	if w.base != "" {
		return w.base
	}
	return w.mm.URL
}

func (w *world) config() *gateway.Config {
	return &gateway.Config{Home: w.home, URL: w.url(), TokenName: "mattermost", Token: secrets.Source{Env: "X"},
		DeadAfter: 900 * time.Millisecond, Allow: []string{w.owner.ID, w.other.ID}, Approvers: []string{w.owner.ID},
		Socket: filepath.Join(w.home, "gw.sock"), LoopSocket: filepath.Join(w.home, "loop.sock")}
}

func (w *world) start() {
	w.t.Helper()
	st, err := gateway.OpenState(gateway.StateFile(w.home))
	if err != nil {
		w.t.Fatal(err)
	}
	w.st = st
	if w.touched != nil {
		touched := w.touched
		gateway.BeforeTouch(st, func() { touched(st) })
	}
	httpc := gateway.NewHTTPClient(w.roots, 10*time.Second)
	w.ready = make(chan struct{})
	var once sync.Once
	w.g = gateway.New(gateway.Options{Config: w.config(), Client: &gateway.Client{URL: w.url(), Token: w.token, HTTP: httpc},
		HTTP: httpc, State: st, Loop: w.loop.call, SessionState: w.sessionState, Log: w.log, UpdateEvery: 20 * time.Millisecond, Now: w.now,
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

// waitForPosts polls until the bot's posts in the thread of root satisfy
// cond, and returns them.
func (w *world) waitForPosts(what, root string, cond func([]fakemattermost.Post) bool) []fakemattermost.Post {
	w.t.Helper()
	var ps []fakemattermost.Post
	w.waitFor(what, func() bool {
		ps = w.botPosts(root)
		return cond(ps)
	})
	return ps
}

// waitForReplies polls until the bot's posts in the thread of root are
// the messages want, in order.
func (w *world) waitForReplies(what, root string, want ...string) {
	w.t.Helper()
	w.waitForPosts(what, root, func(ps []fakemattermost.Post) bool {
		return slices.EqualFunc(ps, want, func(p fakemattermost.Post, m string) bool { return p.Message == m })
	})
}

// ownerSays posts text as the owner: a new thread in the owner's DM
// with the bot.
func (w *world) ownerSays(text string) fakemattermost.Post {
	w.t.Helper()
	p, err := w.mm.PostAs(w.owner.ID, w.mm.DM(w.bot.ID, w.owner.ID).ID, "", text)
	if err != nil {
		w.t.Fatal(err)
	}
	return p
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
	p := w.ownerSays("hello there")
	w.waitForReplies("the reply", p.ID, "echo: hello there")
	reply := w.botPosts(p.ID)[0]
	if reply.RootID != p.ID || reply.Props[gateway.PropReplyTo] != p.ID {
		t.Errorf("the reply is not in the thread, or does not name the post: %+v", reply)
	}
	reqs := w.loop.requests()
	if len(reqs) != 1 || reqs[0].Who != "mattermost:@ann" || reqs[0].Session != "" {
		t.Errorf("turns: %+v", reqs)
	}
	// A reply in the thread is the same session.
	if _, err := w.mm.PostAs(w.owner.ID, p.ChannelID, p.ID, "and again"); err != nil {
		t.Fatal(err)
	}
	w.waitForReplies("the second reply", p.ID, "echo: hello there", "echo: and again")
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
	w.waitForReplies("the mention answered", mention.ID, "echo: what time is it")
	// The thread is followed without a mention.
	follow, _ := w.mm.PostAs(w.owner.ID, ch.ID, mention.ID, "and the date?")
	w.waitForReplies("the follow-up answered", mention.ID, "echo: what time is it", "echo: and the date?")
	_ = follow
	if n := len(w.botPosts(plain.ID)) + len(w.botPosts(strange.ID)); n != 0 {
		t.Errorf("%d replies to posts that were not for Boxmaker", n)
	}
	if !strings.Contains(w.log.String(), "ignored post "+strange.ID+" from user "+w.stranger.ID) {
		t.Errorf("the stranger's post was not counted:\n%s", w.log)
	}
}

func TestLongRepliesAreSplitAndTypingIsShown(t *testing.T) {
	w := newWorld(t)
	long := strings.Repeat("a line of the model's long answer\n", 700) // 23,800 runes
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		for i := 0; i < len(long); i += 1000 {
			emit(loopwire.Event{Event: loopwire.EventText, Text: long[i:min(i+1000, len(long))]})
		}
		return nil
	}
	w.start()
	p := w.ownerSays("tell me everything")
	parts := w.waitForPosts("the reply in two posts", p.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 2 && ps[0].Message+ps[1].Message == long
	})
	for _, q := range parts {
		if n := len([]rune(q.Message)); n > gateway.MaxPostRunes {
			t.Errorf("a post of %d runes", n)
		}
		if q.Props[gateway.PropReplyTo] != p.ID {
			t.Errorf("a part without the reply prop: %v", q.Props)
		}
	}
	typing := 0
	for _, r := range w.mm.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/typing") && strings.Contains(string(r.Body), p.ID) {
			typing++
		}
	}
	if typing == 0 {
		t.Errorf("the bot never showed it was typing in the thread")
	}
}

func TestAForbiddenChannelIsLoggedAndGatewaydGoesOn(t *testing.T) {
	w := newWorld(t)
	w.start()
	ch := w.mm.NewChannel("locked", w.bot.ID, w.owner.ID)
	w.mm.SetFault(fakemattermost.Fault{Forbidden: map[string]bool{ch.ID: true}})
	p, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "@boxmaker hello")
	w.waitFor("the refusal logged", func() bool {
		return strings.Contains(w.log.String(), "post "+p.ID+": cannot reply in channel "+ch.ID+", so it is not answered: POST /posts: 403")
	})
	q := w.ownerSays("still there?")
	w.waitForReplies("the DM answered", q.ID, "echo: still there?")
	if len(w.loop.requests()) != 1 {
		t.Errorf("the forbidden post reached loopd: %+v", w.loop.requests())
	}
}

func TestTLSIsVerifiedAgainstCAFile(t *testing.T) {
	w := newWorld(t, fakemattermost.Options{TLS: true})
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(w.mm.CAPEM()) {
		t.Fatal("the fake's CA")
	}
	// Without the CA: unreachable, and the reason says why.
	w.roots = nil
	ctx, cancel := context.WithCancel(context.Background())
	lines := make(chan string, 8)
	l := &gateway.Link{Client: &gateway.Client{URL: w.mm.URL, Token: w.token, HTTP: gateway.NewHTTPClient(nil, 5*time.Second)},
		HTTP: gateway.NewHTTPClient(nil, 5*time.Second), DeadAfter: time.Second,
		Log:   func(format string, args ...any) { lines <- fmt.Sprintf(format, args...); cancel() },
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	l.Run(ctx)
	if line := <-lines; !strings.Contains(line, "certificate signed by unknown authority") || !strings.Contains(line, "mattermost-unreachable") {
		t.Errorf("without ca_file: %q", line)
	}
	// With it: connected.
	w.roots = pool
	w.start()
	p := w.ownerSays("over tls")
	w.waitForReplies("the reply", p.ID, "echo: over tls")
}

func TestAFirstStartAnswersNothingOlderButCatchesUpAfterAStop(t *testing.T) {
	w := newWorld(t)
	old := w.ownerSays("hello from before gatewayd")
	time.Sleep(5 * time.Millisecond) // gatewayd's clock and the server's may share a millisecond
	w.start()
	p := w.ownerSays("hello now")
	w.waitForReplies("the new post answered", p.ID, "echo: hello now")
	w.stop()
	// While gatewayd is stopped, two posts; then it starts again.
	a := w.ownerSays("hello while away 1")
	b, _ := w.mm.PostAs(w.owner.ID, p.ChannelID, p.ID, "hello while away 2")
	w.start()
	w.waitFor("both caught up", func() bool {
		return len(w.botPosts(a.ID)) == 1 && len(w.botPosts(p.ID)) == 2
	})
	_ = b
	time.Sleep(100 * time.Millisecond)
	if n := len(w.botPosts(old.ID)); n != 0 {
		t.Errorf("a post from before the first start got %d replies", n)
	}
	var texts []string
	for _, r := range w.loop.requests() {
		texts = append(texts, r.Text)
	}
	sort.Strings(texts) // two threads: side by side, in no order between them
	if want := []string{"hello now", "hello while away 1", "hello while away 2"}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("turns %q, want %q (each once)", texts, want)
	}
}

func TestAGapInSeqIsResumedAndNothingIsLost(t *testing.T) {
	w := newWorld(t)
	w.start()
	w.mm.SetFault(fakemattermost.Fault{LoseNext: 1})
	a := w.ownerSays("hello one") // its event is lost on the way
	b := w.ownerSays("hello two") // seq jumps
	w.waitFor("both answered", func() bool {
		pa, pb := w.botPosts(a.ID), w.botPosts(b.ID)
		return len(pa) == 1 && pa[0].Message == "echo: hello one" && len(pb) == 1 && pb[0].Message == "echo: hello two"
	})
	if !strings.Contains(w.log.String(), "the events jumped from seq") {
		t.Errorf("the gap was not seen:\n%s", w.log)
	}
	if n := len(w.loop.requests()); n != 2 {
		t.Errorf("%d turns, want 2", n)
	}
}

// A streamed reply is edited at most once per UpdateEvery (the
// production 500 ms is 20 ms here), and then once with the whole text;
// each tool call is a line of its own that says how it was decided.
func TestAStreamedReplyIsEditedAtMostEveryIntervalAndToolLinesSayTheDecision(t *testing.T) {
	w := newWorld(t)
	var elapsed time.Duration
	want := strings.TrimSpace(strings.Repeat("word ", 150))
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		start := time.Now()
		for range 150 {
			emit(loopwire.Event{Event: loopwire.EventText, Text: "word "})
			time.Sleep(time.Millisecond)
		}
		elapsed = time.Since(start)
		emit(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c1", Tool: "read_file", Arguments: []byte(`{"path":"/etc/shadow"}`)})
		emit(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c1", Outcome: "denied"})
		emit(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c2", Tool: "read_file", Arguments: []byte(`{"path":"/srv/a.txt"}`)})
		emit(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c2", Outcome: "allowed"})
		return nil
	}
	w.start()
	p := w.ownerSays("stream it")
	ps := w.waitForPosts("the reply and two tool lines", p.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 3 && strings.TrimSpace(ps[0].Message) == want && strings.HasSuffix(ps[2].Message, ": allowed")
	})
	if !strings.Contains(ps[1].Message, "/etc/shadow") || !strings.HasSuffix(ps[1].Message, ": denied") || !strings.HasPrefix(ps[1].Message, "tool ") {
		t.Errorf("the denied call's line: %q", ps[1].Message)
	}
	patches := 0
	for _, r := range w.mm.Requests() {
		if r.Method == "PUT" && r.Path == "/api/v4/posts/"+ps[0].ID+"/patch" {
			patches++
		}
	}
	t.Logf("%d edits in %v", patches, elapsed)
	// Slowness only lowers the count: the bound fails only when edits
	// come more often than the interval allows.
	if limit := int(elapsed/(20*time.Millisecond)) + 3; patches > limit {
		t.Errorf("%d edits of the reply in %v: more than one per 20 ms (%d)", patches, elapsed, limit)
	}
}

// A finished turn's reply ends with its usage, compactly (what bxctl
// chat's [turn] line says), with the cache's loss when loopd saw one; a
// turn with no text says so, with the usage too.
func TestAReplyEndsWithItsUsage(t *testing.T) {
	w := newWorld(t)
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		if req.Text != "say nothing" {
			emit(loopwire.Event{Event: loopwire.EventText, Text: "Hello."})
		}
		emit(loopwire.Event{Event: loopwire.EventUsage, Usage: &loopwire.Usage{Requests: 1, PromptTokens: 300, CachedTokens: 900, OutputTokens: 40, Context: 1240, NCtx: 4096,
			CacheLost: "cache loss: the server took 0 tokens from its cache"}})
		return nil
	}
	w.start()
	p := w.ownerSays("hello")
	w.waitForPosts("the reply with its usage", p.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 1 && ps[0].Message == "Hello.\n\n_(tokens 300 in, 40 out; cache reused 75% (the cache was lost); context 1240 of 4096 tokens, 30%)_"
	})
	q := w.ownerSays("say nothing")
	w.waitForPosts("no reply, with its usage", q.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 1 && strings.HasPrefix(ps[0].Message, "_(no reply)_\n\n_(tokens 300 in, 40 out;")
	})
}

// Mattermost served under a path of a site (a reverse proxy's
// https://example.com/mm): the REST calls and the websocket go under it,
// and a post is answered.
func TestAMattermostUnderASubpathIsServed(t *testing.T) {
	w := newWorld(t)
	target, _ := url.Parse(w.mm.URL)
	proxy := httptest.NewServer(http.StripPrefix("/mm", httputil.NewSingleHostReverseProxy(target)))
	t.Cleanup(proxy.Close)
	w.base = proxy.URL + "/mm"
	w.start()
	p := w.ownerSays("hello there")
	w.waitForPosts("the reply, through the subpath", p.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 1 && ps[0].Message == "echo: hello there"
	})
	if !strings.Contains(w.log.String(), "connected to "+proxy.URL+"/mm as @boxmaker") {
		t.Errorf("log:\n%s", w.log)
	}
}

// users/me answered 403 stops gatewayd as 401 does (mattermost-auth-failed,
// with the status), without a single retry.
func TestAForbiddenTokenIsNeverTriedAgain(t *testing.T) {
	w := newWorld(t)
	w.mm.SetFault(fakemattermost.Fault{ForbidMe: true})
	sleeps := 0
	l := &gateway.Link{Client: &gateway.Client{URL: w.mm.URL, Token: w.token, HTTP: gateway.NewHTTPClient(nil, 5*time.Second)},
		HTTP: gateway.NewHTTPClient(nil, 5*time.Second), DeadAfter: time.Second,
		Log:   func(format string, args ...any) { t.Logf(format, args...) },
		Sleep: func(ctx context.Context, d time.Duration) error { sleeps++; return nil },
	}
	err := l.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "Mattermost refused the token (403)") || !isEntry(err, runbook.MattermostAuthFailed) {
		t.Errorf("Run: %v", err)
	}
	if sleeps != 0 {
		t.Errorf("tried again %d times", sleeps)
	}
	n := 0
	for _, r := range w.mm.Requests() {
		if r.Path == "/api/v4/users/me" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("users/me asked %d times", n)
	}
}

func isEntry(err error, want runbook.Entry) bool {
	e, ok := runbook.EntryOf(err)
	return ok && e == want
}

// A failed upgrade, even one refused with 403 (a proxy that does not pass
// WebSockets), is mattermost-unreachable and tried again; once it works,
// gatewayd connects.
func TestAFailedUpgradeIsTriedAgain(t *testing.T) {
	w := newWorld(t)
	w.mm.SetFault(fakemattermost.Fault{NoUpgrade: 403})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var lines []string
	connected := make(chan struct{}, 1)
	l := &gateway.Link{Client: &gateway.Client{URL: w.mm.URL, Token: w.token, HTTP: gateway.NewHTTPClient(nil, 5*time.Second)},
		HTTP: gateway.NewHTTPClient(nil, 5*time.Second), DeadAfter: time.Second,
		Log: func(format string, args ...any) {
			mu.Lock()
			lines = append(lines, fmt.Sprintf(format, args...))
			if len(lines) == 2 {
				w.mm.SetFault(fakemattermost.Fault{})
			}
			mu.Unlock()
		},
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
		Connected: func(ctx context.Context, me gateway.User, fresh bool) error {
			select {
			case connected <- struct{}{}:
			default:
			}
			return nil
		},
		Event: func(gateway.Frame) {},
	}
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	select {
	case <-connected:
	case err := <-done:
		t.Fatalf("Run ended: %v (lines %q)", err, lines)
	case <-time.After(10 * time.Second):
		t.Fatalf("never connected: %q", lines)
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	for _, line := range lines[:2] {
		if !strings.Contains(line, "the WebSocket upgrade failed") || !strings.Contains(line, "403") || !strings.Contains(line, "mattermost-unreachable") {
			t.Errorf("line %q", line)
		}
	}
}

// A dropped WebSocket is resumed with its connection_id and
// sequence_number: the event made while it was down is sent again by the
// server and answered, with no catch-up over REST.
func TestADroppedSocketIsResumed(t *testing.T) {
	w := newWorld(t)
	w.start()
	first := w.ownerSays("hello before")
	w.waitForReplies("the first answer", first.ID, "echo: hello before")
	reads := func() int {
		n := 0
		for _, r := range w.mm.Requests() {
			if r.Method == "GET" && r.Path == "/api/v4/channels/"+first.ChannelID+"/posts" {
				n++
			}
		}
		return n
	}
	before := reads()
	w.mm.SetFault(fakemattermost.Fault{Down: true})
	w.mm.DropSockets()
	w.waitFor("the socket gone", func() bool { return w.mm.Sockets() == 0 })
	p := w.ownerSays("hello while down")
	w.mm.SetFault(fakemattermost.Fault{})
	w.waitForReplies("the post made while down answered", p.ID, "echo: hello while down")
	if w.mm.Resumes() != 1 {
		t.Errorf("%d resumes, want 1:\n%s", w.mm.Resumes(), w.log)
	}
	if n := reads() - before; n != 0 {
		t.Errorf("%d REST reads of the channel after a resume that lost nothing", n)
	}
	if n := len(w.loop.requests()); n != 2 {
		t.Errorf("%d turns, want 2", n)
	}
}
