package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/loopwire"
	"boxmaker/core/termsafe"
	"boxmaker/runbook"
)

// The props gatewayd puts on its own posts, which tell them apart after a
// crash: the post a reply answers, and an approval's id.
const (
	PropReplyTo  = "boxmaker_reply_to"
	PropApproval = "boxmaker_approval"
)

// MaxPostRunes is Mattermost's post size limit (PostMessageMaxRunesV2):
// a longer reply is split over several posts.
const MaxPostRunes = 16383

// placeholder is a reply's text before the model's first words.
const placeholder = "…"

// interruptedNote ends a reply that gatewayd stopped before it finished.
const interruptedNote = "\n\n_(gatewayd was stopped while writing this reply, so it may be incomplete; send the message again for a whole answer)_"

// turn answers one post: the reply is found first if an earlier gatewayd
// started it, then the turn runs with its reply streamed into the thread.
func (g *Gateway) turn(ctx context.Context, t Turn) {
	g.mu.Lock()
	p, known := g.texts[t.Post]
	live := g.livePosts[t.Post]
	g.mu.Unlock()
	// A post that came live on this connection cannot have a reply yet;
	// any other (left in the file, or read again over REST after a
	// crash) may: its thread is read first.
	if !live {
		found, err := g.findReply(ctx, t.Thread, t.Post)
		if err != nil {
			if ctx.Err() == nil {
				g.logf("post %s: cannot read its thread for a reply (trying again in 5 s): %v", t.Post, err)
				g.o.Sleep(ctx, 5*time.Second)
			}
			return
		}
		if found != nil {
			// Answered already, perhaps in part: never twice.
			if !strings.HasSuffix(found.Message, interruptedNote) && found.Prop(PropReplyTo) == t.Post {
				g.patch(ctx, found.ID, found.Message+interruptedNote)
			}
			g.finish(t)
			return
		}
	}
	if !known {
		got, err := g.getPost(ctx, t.Post)
		if err != nil {
			return
		}
		if got == nil {
			g.logf("post %s is gone from Mattermost; not answered", t.Post)
			g.finish(t)
			return
		}
		g.mu.Lock()
		me := g.me.Username
		g.mu.Unlock()
		p = *got
		p.Message = ReadMessage(p.Message, me).Text
	}
	var session string
	g.state.Read(func(s *State) { session = s.Threads[t.Thread].Session })
	who := g.who(ctx, p.UserID)
	r := &reply{g: g, ctx: ctx, channel: t.Channel, root: t.Thread, answers: t.Post,
		threadChannel: t.Channel, threadRoot: t.Thread, asker: p.UserID, askerName: strings.TrimPrefix(who, "mattermost:")}
	// The reply is made before loopd is asked: after a crash, a thread
	// without it is a turn loopd never had.
	if err := r.start(); err != nil {
		if ctx.Err() != nil {
			return
		}
		if isTransient(err) {
			g.logf("post %s: cannot reply in Mattermost (trying again in 2 s): %v", t.Post, err)
			g.o.Sleep(ctx, 2*time.Second)
			return
		}
		g.logf("post %s: cannot reply in channel %s, so it is not answered: %v", t.Post, t.Channel, err)
		g.finish(t)
		return
	}
	tctx, stopTyping := context.WithCancel(ctx)
	go g.typing(tctx, t.Channel, t.Thread)
	// What the session has read decides where its text may be posted
	// (D842): brokerd is asked when the session is known and after each
	// tool result (the only thing in a turn that raises it), before the
	// text that follows is posted.
	var taint string
	taintErr := errors.New("the session is not known yet")
	res, err := g.o.Loop(ctx, loopwire.TurnRequest{Session: session, Who: who, Text: p.Message}, func(e loopwire.Event) error {
		if e.Event == loopwire.EventSession && e.Session != "" && e.Session != session {
			session = e.Session
			if err := g.update(func(s *State) {
				th := s.Threads[t.Thread]
				th.Channel, th.Session = t.Channel, e.Session
				s.Threads[t.Thread] = th
			}); err != nil {
				return err
			}
		}
		if e.Event == loopwire.EventSession || e.Event == loopwire.EventToolResult {
			taint, taintErr = g.sessionTaint(ctx, session)
		}
		r.place(g.place(ctx, t.Channel, taint, taintErr))
		r.event(e)
		return nil
	})
	stopTyping()
	var re *daemon.RemoteError
	switch {
	case ctx.Err() != nil:
		r.end(interruptedNote)
		return // the turn stays: the next gatewayd finds the reply
	case err == nil:
		_ = res
		r.end("")
		g.finish(t)
	case errors.As(err, &re):
		r.end("\n\n" + mattermostText("Boxmaker could not answer: "+re.Text))
		g.finish(t)
	default:
		// loopd is not there, or went away during the turn: it may have
		// run it, so it is never sent again; the posts waiting in this
		// thread are dropped with it.
		g.logf("post %s: loopd at %s did not carry the turn: %v", t.Post, g.cfg.LoopSocket, err)
		r.end("\n\n" + loopUnavailableText())
		g.dropThread(t)
	}
}

// finish records that post t was answered.
func (g *Gateway) finish(t Turn) {
	g.update(func(s *State) {
		s.RemoveTurn(t.Post)
		s.Handled = append(s.Handled, t.Post)
	})
	g.mu.Lock()
	delete(g.texts, t.Post)
	delete(g.livePosts, t.Post)
	g.mu.Unlock()
}

// dropThread ends t and every post waiting behind it in its thread.
func (g *Gateway) dropThread(t Turn) {
	var dropped []string
	g.update(func(s *State) {
		var keep []Turn
		for _, x := range s.Turns {
			if x.Thread == t.Thread {
				dropped = append(dropped, x.Post)
				s.Handled = append(s.Handled, x.Post)
			} else {
				keep = append(keep, x)
			}
		}
		s.Turns = append([]Turn{}, keep...)
	})
	g.mu.Lock()
	for _, id := range dropped {
		delete(g.texts, id)
		delete(g.livePosts, id)
	}
	g.mu.Unlock()
	if len(dropped) > 1 {
		g.logf("thread %s: dropped %d posts that waited behind it: %s", t.Thread, len(dropped)-1, strings.Join(dropped[1:], " "))
	}
}

// findReply looks in thread for a post of gatewayd's answering post: one
// the bot made (its user id; no one else can post as the bot) with
// PropReplyTo naming post. A user's post carrying the prop is no reply.
func (g *Gateway) findReply(ctx context.Context, thread, post string) (*Post, error) {
	g.mu.Lock()
	me := g.me.ID
	g.mu.Unlock()
	if me == "" {
		return nil, errors.New("gatewayd is not connected yet")
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	list, err := g.mm.Thread(cctx, thread)
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) && ae.Status == 404 {
			return nil, nil // the thread is gone: nothing was answered
		}
		return nil, err
	}
	for _, p := range list.Sorted() {
		if p.UserID == me && p.Prop(PropReplyTo) == post {
			return &p, nil
		}
	}
	return nil, nil
}

// getPost is the post, nil when it is gone; an error means try later.
func (g *Gateway) getPost(ctx context.Context, id string) (*Post, error) {
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	p, err := g.mm.GetPost(cctx, id)
	var ae *APIError
	if errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 403) {
		return nil, nil
	}
	if err != nil {
		if ctx.Err() == nil {
			g.logf("post %s: cannot read it (trying again in 5 s): %v", id, err)
			g.o.Sleep(ctx, 5*time.Second)
		}
		return nil, err
	}
	return &p, nil
}

// typing shows the bot typing in the thread until ctx ends.
func (g *Gateway) typing(ctx context.Context, channel, root string) {
	g.mu.Lock()
	me := g.me.ID
	g.mu.Unlock()
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		g.mm.Typing(cctx, me, channel, root)
		cancel()
		if g.o.Sleep(ctx, g.o.TypingEvery) != nil {
			return
		}
	}
}

func (g *Gateway) patch(ctx context.Context, id, message string) error {
	return g.patchProps(ctx, id, message, nil)
}

func (g *Gateway) patchProps(ctx context.Context, id, message string, props map[string]any) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, err := g.mm.PatchPost(cctx, id, message, props)
	return err
}

func (g *Gateway) create(ctx context.Context, np NewPost) (Post, error) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return g.mm.CreatePost(cctx, np)
}

// reply is one turn's posts in its thread: text streamed into a post
// (edited at most every UpdateEvery, split above MaxPostRunes) and one
// short line per tool call.
type reply struct {
	g                      *Gateway
	ctx                    context.Context
	channel, root, answers string
	// threadChannel and threadRoot are the thread of the post answered;
	// channel and root are where the reply goes on, which is the asker's
	// DM once it moved (channel "": nowhere).
	threadChannel, threadRoot string
	asker, askerName          string
	first                     string // the placeholder's post
	moved                     bool

	mu      sync.Mutex
	post    string // the text post being written ("" none)
	text    string // its text
	shown   string // what Mattermost has of it
	last    time.Time
	timer   *time.Timer
	tools   map[string]*toolLine
	started bool
	usage   *loopwire.Usage // the turn's, from loopd's last event
}

type toolLine struct {
	post, summary string
}

func (r *reply) props() map[string]any { return map[string]any{PropReplyTo: r.answers} }

// start makes the reply's first post (the placeholder).
func (r *reply) start() error {
	p, err := r.g.create(r.ctx, NewPost{ChannelID: r.channel, RootID: r.root, Message: placeholder, Props: r.props()})
	if err != nil {
		return err
	}
	r.post, r.shown, r.tools, r.first = p.ID, placeholder, map[string]*toolLine{}, p.ID
	return nil
}

// place moves the rest of the reply to the asker's DM when pl says the
// session's text may not be posted in the thread; once moved, it stays.
func (r *reply) place(pl placement) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pl.here || r.moved {
		return
	}
	r.stopTimer()
	r.moved = true
	g := r.g
	g.mu.Lock()
	me := g.me.ID
	g.mu.Unlock()
	// The current text post's text goes on in the DM from its start:
	// what of it was shown here was shown while it could be, and what
	// was not is not shown here now.
	pending := r.text
	cctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), 30*time.Second)
	dm, err := g.mm.DirectChannel(cctx, me, r.asker)
	cancel()
	var head Post
	if err == nil {
		head, err = g.create(r.ctx, NewPost{ChannelID: dm.ID, Message: fmt.Sprintf("Boxmaker's reply to your post %s/_redirect/pl/%s, sent to you here and not in its thread: %s.",
			g.cfg.URL, r.answers, pl.why), Props: r.props()})
	}
	var note string
	if err != nil {
		g.logf("post %s: the reply may not be posted in its thread (%s), and cannot be sent to %s by direct message, so the rest of it is not posted: %v", r.answers, pl.why, termsafe.Line(r.askerName), err)
		note = fmt.Sprintf("_(the rest of Boxmaker's reply is not posted: %s; and it could not be sent to %s by direct message; %s)_", pl.why, termsafe.Line(r.askerName), runbook.Link(runbook.GatewayReplyMoved))
		r.channel, r.root = "", ""
	} else {
		g.logf("post %s: the reply goes on in a direct message to %s: %s", r.answers, termsafe.Line(r.askerName), pl.why)
		note = replyMovedText(r.askerName, pl.why)
		r.channel, r.root = dm.ID, head.ID
	}
	if r.post == r.first && r.text == "" && r.shown == placeholder {
		g.patch(r.ctx, r.first, note)
	} else if _, err := g.create(r.ctx, NewPost{ChannelID: r.threadChannel, RootID: r.threadRoot, Message: note, Props: r.props()}); err != nil {
		g.logf("post %s: cannot post the note that the reply went on by direct message: %v", r.answers, err)
	}
	r.post, r.text, r.shown = "", "", ""
	if pending != "" && r.channel != "" {
		r.addText(pending)
	}
}

// replyMovedText is the thread's note where a reply went on in the
// asker's DM.
func replyMovedText(asker, why string) string {
	return fmt.Sprintf("_(Boxmaker's reply went to %s by direct message: %s; %s)_", termsafe.Line(asker), why, runbook.Link(runbook.GatewayReplyMoved))
}

// createPost posts msg where the reply goes on; nowhere (an error) once
// it could not be moved.
func (r *reply) createPost(msg string) (Post, error) {
	if r.channel == "" {
		return Post{}, errors.New("the reply is not posted (see the thread's note)")
	}
	return r.g.create(r.ctx, NewPost{ChannelID: r.channel, RootID: r.root, Message: msg, Props: r.props()})
}

func (r *reply) event(e loopwire.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e.Event {
	case loopwire.EventText:
		r.addText(e.Text)
	case loopwire.EventToolCall:
		r.flushLocked()
		r.stopTimer()
		summary := approval.Summary(brokerwire.Pending{Tool: e.Tool, Arguments: argumentsText(e.Arguments)})
		line := &toolLine{summary: summary}
		msg := toolText(summary, "running")
		if r.post != "" && r.text == "" {
			// The placeholder becomes the tool's line.
			r.g.patch(r.ctx, r.post, msg)
			line.post = r.post
		} else if p, err := r.createPost(msg); err == nil {
			line.post = p.ID
		} else {
			r.g.logf("post %s: cannot post the line of tool call %s: %v", r.answers, e.CallID, err)
		}
		r.tools[e.CallID] = line
		r.post, r.text, r.shown = "", "", ""
	case loopwire.EventAsked:
		if l := r.tools[e.CallID]; l != nil && l.post != "" {
			id := termsafe.Line(e.Approval)
			r.g.patch(r.ctx, l.post, toolText(l.summary, fmt.Sprintf("asked: approval %s waits for `!approve %s` or `!refuse %s`", id, id, id)))
		}
	case loopwire.EventToolResult:
		if l := r.tools[e.CallID]; l != nil && l.post != "" {
			r.g.patch(r.ctx, l.post, toolText(l.summary, termsafe.Line(e.Outcome)))
		}
	case loopwire.EventUsage:
		r.usage = e.Usage
	}
}

// usageNote is a finished turn's usage, compactly, at the end of its
// reply: what bxctl chat's [turn] line says.
func usageNote(u loopwire.Usage) string {
	prompt := u.PromptTokens + u.CachedTokens
	reuse := 0
	if prompt > 0 {
		reuse = u.CachedTokens * 100 / prompt
	}
	s := fmt.Sprintf("tokens %d in, %d out; cache reused %d%%", u.PromptTokens, u.OutputTokens, reuse)
	if u.CacheLost != "" {
		s += " (the cache was lost)"
	}
	if u.NCtx > 0 {
		s += fmt.Sprintf("; context %d of %d tokens, %d%%", u.Context, u.NCtx, u.Context*100/u.NCtx)
	} else {
		s += fmt.Sprintf("; context %d tokens", u.Context)
	}
	return "_(" + s + ")_"
}

func argumentsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s // arguments that were not an object, sent as a string
	}
	return string(raw)
}

// toolText is a tool call's line: what it does and how it went.
func toolText(summary, outcome string) string {
	return "tool " + codeSpan(summary) + ": " + outcome
}

// addText adds streamed text; called with r.mu held.
func (r *reply) addText(s string) {
	r.text += s
	for utf8.RuneCountInString(mattermostText(r.text)) > MaxPostRunes {
		head, rest := splitPost(r.text)
		r.text = head
		r.flushLocked()
		r.post, r.text, r.shown = "", rest, ""
	}
	if r.post == "" {
		msg := r.g.fromModel(r.text)
		p, err := r.createPost(msg)
		if err != nil {
			r.g.logf("post %s: cannot post the reply: %v", r.answers, err)
			return
		}
		r.post, r.shown, r.last = p.ID, msg, time.Now()
		return
	}
	if since := time.Since(r.last); since >= r.g.o.UpdateEvery {
		r.flushLocked()
		return
	}
	if r.timer == nil {
		r.timer = time.AfterFunc(r.g.o.UpdateEvery-time.Since(r.last), func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.timer = nil
			r.flushLocked()
		})
	}
}

func (r *reply) stopTimer() {
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

// flushLocked brings the text post up to date.
func (r *reply) flushLocked() {
	if r.post == "" || r.text == "" {
		return
	}
	msg := r.g.fromModel(r.text)
	if msg == r.shown {
		return
	}
	if err := r.g.patch(r.ctx, r.post, msg); err != nil {
		r.g.logf("post %s: cannot update the reply: %v", r.answers, err)
		return
	}
	r.shown, r.last = msg, time.Now()
}

// end writes the reply's last state, with note after the text.
func (r *reply) end(note string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopTimer()
	if note == "" && r.usage != nil {
		// A turn loopd finished: its usage ends the reply.
		note = "\n\n" + usageNote(*r.usage)
		if r.post != "" && r.text == "" && r.shown == placeholder {
			r.g.patch(r.ctx, r.post, "_(no reply)_"+note)
			return
		}
	}
	if note == "" {
		if r.post != "" && r.text == "" && r.shown == placeholder {
			r.g.patch(r.ctx, r.post, "_(no reply)_")
			return
		}
		r.flushLocked()
		return
	}
	if r.post == "" {
		if _, err := r.createPost(strings.TrimSpace(note)); err != nil {
			r.g.logf("post %s: cannot post: %v", r.answers, err)
		}
		return
	}
	text := r.g.fromModel(r.text)
	if r.text == "" {
		text = ""
	}
	msg := strings.TrimSpace(text + note)
	if err := r.g.patch(r.ctx, r.post, msg); err != nil {
		r.g.logf("post %s: cannot update the reply: %v", r.answers, err)
	}
}

// splitPost cuts s before MaxPostRunes (minus room for the escapes),
// at the last line break of the last quarter when there is one.
func splitPost(s string) (head, rest string) {
	limit := MaxPostRunes - 512
	i, n := 0, 0
	for i < len(s) && n < limit {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	if j := strings.LastIndexByte(s[:i], '\n'); j > i*3/4 {
		i = j + 1
	}
	return s[:i], s[i:]
}

// mattermostText is text from the model or a tool as gatewayd posts it:
// Markdown images, which Mattermost's clients load by themselves (so a
// URL the model chose would be fetched, with whatever it put in it), are
// shown as text, and @channel, @all and @here notify no one.
func mattermostText(s string) string {
	s = strings.ReplaceAll(s, "![", `!\[`)
	for _, w := range []string{"@channel", "@all", "@here"} {
		s = replaceWord(s, w, "@\u200b"+w[1:])
	}
	return s
}

func replaceWord(s, word, with string) string {
	lower := asciiLower(s)
	var b strings.Builder
	for i := 0; ; {
		j := strings.Index(lower[i:], word)
		if j < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		j += i
		end := j + len(word)
		if end < len(s) && isNameChar(lower[end]) {
			b.WriteString(s[i:end])
			i = end
			continue
		}
		b.WriteString(s[i:j])
		b.WriteString(with)
		i = end
	}
}

// codeSpan shows s as inline code, whatever backticks it holds.
func codeSpan(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	return fence + " " + s + " " + fence
}

// asciiLower lowercases the ASCII letters of s and nothing else, so that
// an index into it is an index into s (strings.ToLower changes the length
// of some runes, such as 'İ' or the Kelvin sign, and the model chooses
// the text).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
