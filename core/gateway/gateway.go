package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"boxmaker/core/clock"
	"boxmaker/core/loopwire"
	"boxmaker/core/termsafe"
	"boxmaker/runbook"
)

// LoopFunc sends one turn to loopd and streams its events (core/daemon's
// Call on the loop socket).
type LoopFunc func(ctx context.Context, req loopwire.TurnRequest, onEvent func(loopwire.Event) error) (loopwire.TurnResult, error)

// Options are what a Gateway works with.
type Options struct {
	Config *Config
	Client *Client
	HTTP   *http.Client
	State  *Store
	Loop   LoopFunc
	// SessionState asks brokerd's state socket for a session's taint
	// (core/brokerwire's session.state); nil: never known, so a reply
	// above public is never posted where a stranger reads.
	SessionState func(ctx context.Context, session string) (string, error)
	// Log receives gatewayd's lines (each escaped by the caller's writer).
	Log io.Writer
	// Ready is called once, when gatewayd is first connected.
	Ready func()
	// Sleep waits (tests pass a fast one); nil: the clock's.
	Sleep func(ctx context.Context, d time.Duration) error
	// UpdateEvery bounds how often a streaming reply is edited (0: 500 ms).
	UpdateEvery time.Duration
	// TypingEvery is how often "typing" is sent while a turn runs (0: 4 s).
	TypingEvery time.Duration
	Now         func() time.Time
}

// Gateway is gatewayd's work: the link to Mattermost, the posts it
// answers, the turns, and the approvals brokerd hands it.
type Gateway struct {
	o     Options
	cfg   *Config
	mm    *Client
	state *Store

	mu      sync.Mutex
	me      User
	ready   bool
	inbox   []inboxItem
	wake    chan struct{}
	workers map[string]bool // threads with a running worker
	texts   map[string]Post // posts waiting for a turn, by id (those this gatewayd read)
	// live are the posts of texts that came as events on this
	// gatewayd's connection: no earlier gatewayd can have answered them.
	livePosts map[string]bool
	users     map[string]string
	ignored   map[string]int
	live      map[string]*liveApproval
	audiences map[string]audience // channels' readers, by id (audience.go)
	// replyMu is held across each reply that is not a turn's and the
	// record that follows it (replies.go), so that two of them never
	// answer one post side by side.
	replyMu sync.Mutex
	// unanswered are the held commands known to have no reply: taken by
	// this gatewayd, or found without one in their thread.
	unanswered map[string]bool
	fatal      chan error
	wg         sync.WaitGroup
	stopping   bool
}

type inboxItem struct {
	catchUp bool
	posted  Posted
}

// New prepares a Gateway.
func New(o Options) *Gateway {
	if o.UpdateEvery == 0 {
		o.UpdateEvery = 500 * time.Millisecond
	}
	if o.TypingEvery == 0 {
		o.TypingEvery = 4 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = clock.Sleep
	}
	return &Gateway{o: o, cfg: o.Config, mm: o.Client, state: o.State, wake: make(chan struct{}, 1),
		workers: map[string]bool{}, texts: map[string]Post{}, livePosts: map[string]bool{}, users: map[string]string{}, ignored: map[string]int{},
		live: map[string]*liveApproval{}, audiences: map[string]audience{}, unanswered: map[string]bool{}, fatal: make(chan error, 1)}
}

func (g *Gateway) logf(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fmt.Fprintf(g.o.Log, "gatewayd: "+format+"\n", args...)
}

// fail stops gatewayd with err (the first one wins).
func (g *Gateway) fail(err error) {
	select {
	case g.fatal <- err:
	default:
	}
}

// update writes a change of the state; a failure stops gatewayd.
func (g *Gateway) update(f func(s *State)) error {
	err := g.state.Update(f)
	if err != nil {
		g.fail(err)
	}
	return err
}

// Run keeps gatewayd connected and answering until ctx ends (nil), or
// until Mattermost refuses the token or the state cannot be written.
func (g *Gateway) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A first start answers nothing posted before it: "since" is taken
	// before the first connection, so a post made while it connects is
	// answered.
	var since int64
	g.state.Read(func(s *State) { since = s.Since })
	if since == 0 {
		now := g.o.Now().UnixMilli()
		if err := g.update(func(s *State) { s.Since = now }); err != nil {
			return err
		}
	}
	// Taken before the link can connect (and Ready be called): a held
	// command older than this was taken by a gatewayd that stopped.
	started := g.o.Now()
	link := &Link{Client: g.mm, HTTP: g.o.HTTP, DeadAfter: g.cfg.DeadAfter, Sleep: g.o.Sleep,
		Log:       func(format string, args ...any) { g.logf(format, args...) },
		Connected: g.connected,
		Event:     g.event,
	}
	linkErr := make(chan error, 1)
	go func() { linkErr <- link.Run(ctx) }()
	g.wg.Add(2)
	go g.dispatch(ctx)
	go g.sweeper(ctx, started)
	var err error
	select {
	case err = <-linkErr:
	case err = <-g.fatal:
	case <-ctx.Done():
	}
	g.mu.Lock()
	g.stopping = true
	g.mu.Unlock()
	cancel()
	g.wg.Wait()
	if err == nil {
		select {
		case err = <-g.fatal:
		default:
		}
	}
	return err
}

// sweeper answers, every few seconds, the held commands no courier came
// for (sweepHeld).
func (g *Gateway) sweeper(ctx context.Context, started time.Time) {
	defer g.wg.Done()
	for g.o.Sleep(ctx, 5*time.Second) == nil {
		g.sweepHeld(ctx, started)
	}
}

// connected is each working connection: the start line, readiness once,
// and a catch-up when events may have been missed.
func (g *Gateway) connected(ctx context.Context, me User, fresh bool) error {
	g.mu.Lock()
	g.me = me
	first := !g.ready
	g.ready = true
	g.mu.Unlock()
	var bot string
	g.state.Read(func(s *State) { bot = s.Bot })
	if bot == "" {
		if err := g.update(func(s *State) { s.Bot = me.ID }); err != nil {
			return err
		}
	}
	g.logf("connected to %s as @%s", g.cfg.URL, termsafe.Line(me.Username))
	if first && g.o.Ready != nil {
		g.o.Ready()
	}
	if fresh || first {
		g.push(inboxItem{catchUp: true})
	}
	return nil
}

// event takes one WebSocket event (on the link's goroutine).
func (g *Gateway) event(f Frame) {
	switch f.Event {
	case "user_added", "channel_converted", "channel_updated", "channel_member_updated":
		// A channel's readers or type may have changed.
		if f.Broadcast != nil && f.Broadcast.ChannelID != "" {
			g.forgetAudience(f.Broadcast.ChannelID)
		}
		if id := f.String("channel_id"); id != "" {
			g.forgetAudience(id)
		}
		return
	case "posted":
	default:
		return
	}
	p, err := PostedEvent(f)
	if err != nil {
		g.logf("a posted event that cannot be read: %v", err)
		return
	}
	g.push(inboxItem{posted: p})
}

func (g *Gateway) push(it inboxItem) {
	g.mu.Lock()
	g.inbox = append(g.inbox, it)
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// dispatch takes the inbox in order: catch-ups and posts.
func (g *Gateway) dispatch(ctx context.Context) {
	defer g.wg.Done()
	resumed := false
	for {
		g.mu.Lock()
		var it *inboxItem
		if len(g.inbox) > 0 {
			it = &g.inbox[0]
			g.inbox = g.inbox[1:]
		}
		g.mu.Unlock()
		if it == nil {
			select {
			case <-ctx.Done():
				return
			case <-g.wake:
			}
			continue
		}
		if it.catchUp {
			if !resumed {
				// The turns a stopped gatewayd left, once the bot is
				// known (its replies are found by its id) and before
				// any post read now.
				resumed = true
				g.resumeTurns(ctx)
			}
			if err := g.catchUp(ctx); err != nil && ctx.Err() == nil {
				g.logf("cannot catch up on the posts made while gatewayd was away: %v (tried again at the next connection)", err)
			}
			continue
		}
		if p, channelType, ok := g.confirm(ctx, it.posted); ok {
			g.post(ctx, p, channelType, "", true)
		}
	}
}

// confirm is the post a posted event announced as the REST API describes
// it (author, channel, thread, text), with its channel's type as the API
// says, and whether gatewayd may act on it (D841). The event's own word
// is never taken for who wrote a post or where: a stream tampered with
// on the way (a proxy, a compromised plugin) could claim an allowed
// user's id, an approver's, or a direct message. An event that claims
// the bot's own post is dropped unread: nothing of it is recorded, so a
// false claim only drops a post, which whoever can tamper with the
// stream can do anyway.
func (g *Gateway) confirm(ctx context.Context, ev Posted) (Post, string, bool) {
	g.mu.Lock()
	me := g.me.ID
	g.mu.Unlock()
	claimed := ev.Post
	if claimed.UserID == me {
		return Post{}, "", false
	}
	var p Post
	for try := 1; ; try++ {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		got, err := g.mm.GetPost(cctx, claimed.ID)
		cancel()
		if err == nil {
			p = got
			break
		}
		if ctx.Err() != nil {
			return Post{}, "", false
		}
		if !isTransient(err) || try == 5 {
			g.logf("post %s: a posted event names it, but Mattermost does not show it to gatewayd, so it is not answered: %v", termsafe.Line(claimed.ID), err)
			return Post{}, "", false
		}
		g.o.Sleep(ctx, 2*time.Second)
	}
	a, err := g.channelInfo(ctx, p.ChannelID)
	for try := 1; err != nil; try++ {
		if ctx.Err() != nil {
			return Post{}, "", false
		}
		if !isTransient(err) || try == 5 {
			g.logf("post %s: cannot read its channel %s, so it is not answered: %v", p.ID, p.ChannelID, err)
			return Post{}, "", false
		}
		g.o.Sleep(ctx, 2*time.Second)
		a, err = g.channelInfo(ctx, p.ChannelID)
	}
	if claimed.UserID != p.UserID || claimed.ChannelID != p.ChannelID || claimed.RootID != p.RootID ||
		(ev.ChannelType != "" && ev.ChannelType != a.channel.Type) {
		g.logf("post %s: the posted event says user %s, channel %s (type %s), thread %s, but Mattermost says user %s, channel %s (type %s), thread %s: it is taken as Mattermost says",
			p.ID, termsafe.Line(claimed.UserID), termsafe.Line(claimed.ChannelID), termsafe.Line(ev.ChannelType), termsafe.Line(claimed.Thread()),
			p.UserID, p.ChannelID, a.channel.Type, p.Thread())
	}
	return p, a.channel.Type, true
}

// post judges one post, live (an event) or caught up (read over REST),
// and acts on it. Its channel's cursor passes it only in the change of
// the state that records what became of it: an Update of another
// goroutine's (a turn's, the sweeper's, the courier's) writes the state
// whole at any moment, so a cursor moved ahead of that record could reach
// the disk without it, and a kill then would lose the post (D750).
func (g *Gateway) post(ctx context.Context, p Post, channelType, sender string, live bool) {
	var cur Cursor
	var haveCursor bool
	g.state.Read(func(s *State) { cur, haveCursor = s.Channels[p.ChannelID] })
	if channelType == "" {
		channelType = cur.Type
	}
	if live && haveCursor && (p.CreateAt < cur.At || p.CreateAt == cur.At && p.ID <= cur.Post) {
		// An event for a post the channel's cursor has passed (sent
		// again, or replayed): it may have been answered, so its thread
		// is read first, as a post read over REST.
		live = false
	}
	pass := func(s *State) { s.Advance(p, channelType) }
	if !g.take(ctx, p, channelType, sender, live, haveCursor, pass) {
		// Dropped on purpose (in memory, written with the next change):
		// read again after a crash, it is dropped again.
		g.state.Touch(pass)
	}
}

// take acts on post p: it queues p's turn, or takes its command, with
// pass (the cursor moved past p) in the same change of the state, and
// reports whether it did; false: p is dropped (not for gatewayd, or
// queued or handled already).
func (g *Gateway) take(ctx context.Context, p Post, channelType, sender string, live, haveCursor bool, pass func(s *State)) bool {
	g.mu.Lock()
	me := g.me
	g.mu.Unlock()
	var done, tracked, channelRead bool
	g.state.Read(func(s *State) {
		done = s.HandledPost(p.ID) || s.Waiting(p.ID)
		_, tracked = s.Threads[p.Thread()]
		for _, th := range s.Threads {
			if th.Channel == p.ChannelID {
				channelRead = true
				break
			}
		}
	})
	if done || p.UserID == me.ID || p.Type != "" || p.DeleteAt != 0 {
		return false
	}
	if !haveCursor && channelType == "D" {
		// A DM channel gatewayd has not read before (made while it was
		// away): nothing older than its first start is answered.
		var since int64
		g.state.Read(func(s *State) { since = s.Since })
		if p.CreateAt <= since {
			return false
		}
	}
	if by := integration(p); by != "" {
		// A webhook, a slash command or a plugin posts in the name of
		// the user who set it up (an allowed user's id), with text from
		// whoever calls it: never the person (D452).
		g.mu.Lock()
		g.ignored[by]++
		n := g.ignored[by]
		g.mu.Unlock()
		if n == 1 || n%100 == 0 {
			g.logf("ignored post %s in the name of user %s: made by an integration (props.%s), not by the person (%d so far)", p.ID, p.UserID, by, n)
		}
		return false
	}
	if !slices.Contains(g.cfg.Allow, p.UserID) {
		g.mu.Lock()
		g.ignored[p.UserID]++
		n := g.ignored[p.UserID]
		g.mu.Unlock()
		if n == 1 || n%100 == 0 {
			g.logf("ignored post %s from user %s, who is not in [allow] users (%d from them so far)", p.ID, p.UserID, n)
		}
		return false
	}
	msg := ReadMessage(p.Message, me.Username)
	if msg.ForOther {
		return false
	}
	addressed := channelType == "D" || msg.Mentioned || tracked
	if msg.Command != nil {
		return g.command(ctx, p, msg, channelType, sender, live, pass)
	}
	if !addressed || strings.TrimSpace(msg.Text) == "" {
		return false
	}
	if sender != "" {
		g.mu.Lock()
		g.users[p.UserID] = strings.TrimPrefix(sender, "@")
		g.mu.Unlock()
	}
	t := Turn{Post: p.ID, Channel: p.ChannelID, Thread: p.Thread(), User: p.UserID}
	p.Message = msg.Text
	g.mu.Lock()
	g.texts[p.ID] = p
	g.livePosts[p.ID] = live
	g.mu.Unlock()
	// Queued in memory, with the cursor past it: both reach the file
	// with the next write, together. A crash before that leaves the post
	// behind the cursor on disk, and the next start reads it again;
	// either way its thread is read for a reply before it runs (D443,
	// D444).
	t.Started = true
	queue := func(s *State) {
		pass(s)
		s.Turns = append(s.Turns, t)
		if _, ok := s.Threads[t.Thread]; !ok {
			s.Threads[t.Thread] = Thread{Channel: t.Channel}
		}
	}
	if channelType != "D" && !channelRead {
		// The catch-up reads a channel only for a thread of Boxmaker's
		// there on disk: the first one is written before its placeholder
		// can be posted, or a crash between them would leave the
		// placeholder unanswered for good (D751).
		if g.update(queue) != nil {
			return true
		}
	} else {
		g.state.Touch(queue)
	}
	g.startWorker(ctx, t.Thread)
	return true
}

// integration is the prop that marks p as made by a webhook, a bot or a
// plugin rather than typed by its user, or "".
func integration(p Post) string {
	for _, k := range []string{"from_webhook", "from_bot", "from_plugin", "override_username"} {
		if v, ok := p.Props[k]; ok && v != nil && v != false && v != "" && v != "false" {
			return k
		}
	}
	return ""
}

// resumeTurns starts the workers of the turns a stopped gatewayd left.
func (g *Gateway) resumeTurns(ctx context.Context) {
	var threads []string
	g.state.Read(func(s *State) {
		for _, t := range s.Turns {
			if !slices.Contains(threads, t.Thread) {
				threads = append(threads, t.Thread)
			}
		}
	})
	for _, th := range threads {
		g.startWorker(ctx, th)
	}
}

// startWorker runs the thread's turns one after another, unless a worker
// does already.
func (g *Gateway) startWorker(ctx context.Context, thread string) {
	g.mu.Lock()
	if g.workers[thread] || g.stopping {
		g.mu.Unlock()
		return
	}
	g.workers[thread] = true
	g.wg.Add(1)
	g.mu.Unlock()
	go func() {
		defer g.wg.Done()
		for ctx.Err() == nil {
			var next *Turn
			g.state.Read(func(s *State) {
				for _, t := range s.Turns {
					if t.Thread == thread {
						next = &t
						break
					}
				}
			})
			if next == nil {
				g.mu.Lock()
				// A turn queued between the read and here starts a new
				// worker once this one is gone.
				delete(g.workers, thread)
				g.mu.Unlock()
				var again bool
				g.state.Read(func(s *State) {
					again = slices.ContainsFunc(s.Turns, func(t Turn) bool { return t.Thread == thread })
				})
				if again {
					g.startWorker(ctx, thread)
				}
				return
			}
			g.turn(ctx, *next)
		}
		g.mu.Lock()
		delete(g.workers, thread)
		g.mu.Unlock()
	}()
}

// who is the turn's person: the Mattermost user, by name.
func (g *Gateway) who(ctx context.Context, id string) string {
	g.mu.Lock()
	name, ok := g.users[id]
	g.mu.Unlock()
	if !ok {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		u, err := g.mm.User(cctx, id)
		cancel()
		if err == nil {
			name = u.Username
			g.mu.Lock()
			g.users[id] = name
			g.mu.Unlock()
		}
	}
	if name == "" {
		return "mattermost:" + id
	}
	return "mattermost:@" + name
}

// errLoop says loopd did not carry the turn to its end.
var errLoop = errors.New("loop")

// isTransient tells a Mattermost failure worth waiting out (the network,
// a 5xx) from a refusal of the request itself (4xx).
func isTransient(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status >= 500 || ae.Status == http.StatusTooManyRequests
	}
	return err != nil
}

// loopUnavailableText is what the thread reads when loopd is not there.
func loopUnavailableText() string {
	return "Boxmaker's loop is not running (" + runbook.Link(runbook.LoopUnavailable) + ")"
}
