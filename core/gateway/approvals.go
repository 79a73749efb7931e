package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"boxmaker/core/approval"
	"boxmaker/core/daemon"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/termsafe"
)

// liveApproval is an approval brokerd's courier is attached to: its
// answer from Mattermost is handed over at the courier's next wait.
type liveApproval struct {
	p       approval.Pending
	answer  chan gatewaywire.Answered // buffered 1: the first answer
	claimed bool
}

// Handlers are gateway.sock's kinds (core/gatewaywire).
func (g *Gateway) Handlers() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		gatewaywire.KindApprovalPost:   g.handlePost,
		gatewaywire.KindApprovalWait:   g.handleWait,
		gatewaywire.KindApprovalSettle: g.handleSettle,
	}
}

func decodeStrict(body json.RawMessage, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the request is not what gateway.sock takes: %v", err)
	}
	return nil
}

// errNoApprovers is approval.post's answer without [approvals] users.
var errNoApprovers = errors.New("gatewayd.toml has no [approvals] users: no one could answer it in Mattermost")

func (g *Gateway) handlePost(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
	var req gatewaywire.Post
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	p := req.Approval
	if !approvalIDRE.MatchString(p.ID) || p.CallHash == "" {
		return nil, fmt.Errorf("approval %q has no id or no call hash", p.ID)
	}
	if len(g.cfg.Approvers) == 0 {
		return nil, errNoApprovers
	}
	g.mu.Lock()
	ready := g.ready
	la := g.live[p.ID]
	if la == nil || la.p.CallHash != p.CallHash {
		la = &liveApproval{p: p, answer: make(chan gatewaywire.Answered, 1)}
		g.live[p.ID] = la
	}
	g.mu.Unlock()
	var known *PostedApproval
	g.state.Read(func(s *State) {
		if a := s.Approvals[p.ID]; a != nil && a.CallHash == p.CallHash && len(a.Posts) > 0 {
			c := *a
			known = &c
		}
	})
	if known != nil {
		return gatewaywire.Posted{Posts: len(known.Posts), Again: true}, nil
	}
	if !ready {
		return nil, fmt.Errorf("gatewayd is not connected to %s yet", g.cfg.URL)
	}
	posts, err := g.postApproval(ctx, p)
	if len(posts) == 0 {
		return nil, fmt.Errorf("cannot post it in Mattermost: %v", err)
	}
	if err != nil {
		g.logf("approval %s: posted %d times, but not everywhere: %v", p.ID, len(posts), err)
	}
	if err := g.update(func(s *State) {
		s.Approvals[p.ID] = &PostedApproval{CallHash: p.CallHash, Session: p.Session, Posts: posts,
			Expires: p.Expires.UnixMilli(), Summary: approval.Summary(p)}
	}); err != nil {
		return nil, err
	}
	g.logf("approval %s posted in Mattermost (%d posts)", p.ID, len(posts))
	return gatewaywire.Posted{Posts: len(posts)}, nil
}

// postApproval posts p in the thread of the session that asked, when it
// came from Mattermost, else as a DM to each approver.
func (g *Gateway) postApproval(ctx context.Context, p approval.Pending) ([]ApprovalPost, error) {
	g.mu.Lock()
	me := g.me
	g.mu.Unlock()
	var where []ApprovalPost
	g.state.Read(func(s *State) {
		for root, th := range s.Threads {
			if th.Session != "" && th.Session == p.Session {
				where = append(where, ApprovalPost{Channel: th.Channel, Root: root})
			}
		}
	})
	if len(where) == 0 {
		for _, u := range g.cfg.Approvers {
			cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			c, err := g.mm.DirectChannel(cctx, me.ID, u)
			cancel()
			if err != nil {
				return nil, err
			}
			where = append(where, ApprovalPost{Channel: c.ID})
		}
	}
	msg := approvalMessage(p, me.Username, g.o.Now())
	var posts []ApprovalPost
	var firstErr error
	for _, w := range where {
		got, err := g.create(ctx, NewPost{ChannelID: w.Channel, RootID: w.Root, Message: msg,
			Props: map[string]any{PropApproval: p.ID}})
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		w.Post = got.ID
		posts = append(posts, w)
	}
	return posts, firstErr
}

// approvalMessage is an approval's post: the whole call as bxctl
// approvals show renders it (core/approval), its expiry, and how to
// answer. The rendering is in a code block whose fence is longer than any
// run of backticks in it, so nothing the model wrote can end it.
func approvalMessage(p approval.Pending, bot string, now time.Time) string {
	var b strings.Builder
	approval.Render(&b, p, approval.Options{Now: now, More: "bxctl approvals show " + p.ID + " --full shows it all"})
	body := b.String()
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	head := fmt.Sprintf("**Boxmaker asks for approval `%s`**: %s\n", p.ID, codeSpan(approval.Summary(p)))
	foot := fmt.Sprintf("It expires at %s (in %s). Answer in this thread with `!approve %s` or `!refuse %s [reason]`; "+
		"where two Boxmakers share the thread, `@%s !approve %s`.", p.Expires.UTC().Format(time.RFC3339),
		p.Expires.Sub(now).Round(time.Second), p.ID, p.ID, termsafe.Line(bot), p.ID)
	room := MaxPostRunes - len([]rune(head)) - len([]rune(foot)) - 2*len(fence) - 64
	if r := []rune(body); len(r) > room {
		body = string(r[:room]) + "\n[cut: bxctl approvals show " + p.ID + " --full shows it all]\n"
	}
	return head + fence + "text\n" + body + fence + "\n" + foot
}

func (g *Gateway) handleWait(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
	var req gatewaywire.Wait
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	g.mu.Lock()
	la := g.live[req.ID]
	g.mu.Unlock()
	if la == nil || la.p.CallHash != req.CallHash {
		return nil, fmt.Errorf("approval %s is not posted by this gatewayd (post it again)", req.ID)
	}
	wait := time.Duration(req.WaitMS) * time.Millisecond
	if wait <= 0 || wait > time.Minute {
		wait = 25 * time.Second
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case a := <-la.answer:
		return a, nil
	case <-t.C:
		return gatewaywire.Answered{}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *Gateway) handleSettle(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
	var req gatewaywire.Settle
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	g.mu.Lock()
	if la := g.live[req.ID]; la != nil && la.p.CallHash == req.CallHash {
		delete(g.live, req.ID)
	}
	g.mu.Unlock()
	var a *PostedApproval
	g.state.Read(func(s *State) {
		if x := s.Approvals[req.ID]; x != nil && x.CallHash == req.CallHash {
			c := *x
			a = &c
		}
	})
	if a == nil {
		return gatewaywire.Settled{}, nil
	}
	what := settledText(req)
	if req.Outcome == gatewaywire.OutcomeNotPending {
		// An answer that came too late: the approval ended otherwise, and
		// brokerd will settle it so; the command gets brokerd's words.
		if req.Command != "" {
			g.replyTo(ctx, req.Command, mattermostText(fmt.Sprintf("approval %s: %s", req.ID, termsafe.Line(req.Text))))
		}
		return gatewaywire.Settled{}, nil
	}
	edited := 0
	for _, p := range a.Posts {
		msg := fmt.Sprintf("**Approval `%s`: %s**\n%s", req.ID, what, codeSpan(a.Summary))
		if err := g.patch(ctx, p.Post, msg); err == nil {
			edited++
		} else {
			g.logf("approval %s: cannot edit its post %s: %v", req.ID, p.Post, err)
		}
	}
	if req.Command != "" {
		g.replyTo(ctx, req.Command, fmt.Sprintf("approval %s %s", req.ID, what))
	}
	if err := g.update(func(s *State) {
		if x := s.Approvals[req.ID]; x != nil && x.CallHash == req.CallHash {
			x.Settled = what
		}
		pruneApprovals(s, g.o.Now())
	}); err != nil {
		return nil, err
	}
	return gatewaywire.Settled{Edited: edited}, nil
}

// settledText says how an approval ended, for its post.
func settledText(s gatewaywire.Settle) string {
	by := termsafe.Line(s.By)
	switch s.Outcome {
	case gatewaywire.OutcomeApproved:
		return "approved by " + by
	case gatewaywire.OutcomeRefused:
		t := "refused by " + by
		if s.Why != "" {
			t += ": " + termsafe.Line(s.Why)
		}
		return t
	case gatewaywire.OutcomeExpired:
		return "expired without an answer"
	case gatewaywire.OutcomeAbandoned:
		return "abandoned: brokerd stopped before an answer"
	}
	return termsafe.Line(s.Outcome)
}

// pruneApprovals forgets settled approvals a day after they expired.
func pruneApprovals(s *State, now time.Time) {
	for id, a := range s.Approvals {
		if a.Settled != "" && now.UnixMilli()-a.Expires > int64(24*time.Hour/time.Millisecond) {
			delete(s.Approvals, id)
		}
	}
}

// replyTo answers the post id in its thread.
func (g *Gateway) replyTo(ctx context.Context, id, message string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	p, err := g.mm.GetPost(cctx, id)
	if err != nil {
		g.logf("cannot reply to post %s: %v", id, err)
		return
	}
	if _, err := g.mm.CreatePost(cctx, NewPost{ChannelID: p.ChannelID, RootID: p.Thread(), Message: message}); err != nil {
		g.logf("cannot reply to post %s: %v", id, err)
	}
}

// command takes !approve ID or !refuse ID [reason] from a post.
func (g *Gateway) command(ctx context.Context, p Post, msg Message, channelType, sender string) {
	cmd := msg.Command
	var a *PostedApproval
	g.state.Read(func(s *State) {
		if x := s.Approvals[cmd.ID]; x != nil {
			c := *x
			a = &c
		}
	})
	here := a != nil && slices.ContainsFunc(a.Posts, func(ap ApprovalPost) bool {
		if ap.Channel != p.ChannelID {
			return false
		}
		return ap.Root == "" || ap.Root == p.Thread()
	})
	addressed := channelType == "D" || msg.Mentioned
	reply := func(text string) {
		g.update(func(s *State) { s.Handled = append(s.Handled, p.ID) })
		g.replyPost(ctx, p, text)
	}
	switch {
	case cmd.Usage != "":
		if addressed || here {
			reply(cmd.Usage)
		}
		return
	case !here:
		if addressed {
			reply(fmt.Sprintf("no approval %s is pending in this thread", cmd.ID))
		}
		return
	case !slices.Contains(g.cfg.Approvers, p.UserID):
		reply(fmt.Sprintf("approval %s: only the users in gatewayd's [approvals] users may answer approvals, and you are not one of them", cmd.ID))
		return
	case a.Settled != "":
		reply(fmt.Sprintf("approval %s is no longer pending: %s", cmd.ID, a.Settled))
		return
	case g.o.Now().UnixMilli() > a.Expires:
		reply(fmt.Sprintf("approval %s is no longer pending: it expired at %s", cmd.ID, time.UnixMilli(a.Expires).UTC().Format(time.RFC3339)))
		return
	}
	g.mu.Lock()
	la := g.live[cmd.ID]
	ok := la != nil && la.p.CallHash == a.CallHash && !la.claimed
	claimed := la != nil && la.claimed
	if ok {
		la.claimed = true
	}
	g.mu.Unlock()
	switch {
	case claimed:
		reply(fmt.Sprintf("approval %s is being answered already", cmd.ID))
		return
	case !ok:
		reply(fmt.Sprintf("approval %s is not pending now: brokerd is not waiting for it (bxctl approvals lists those that wait)", cmd.ID))
		return
	}
	if g.update(func(s *State) { s.Handled = append(s.Handled, p.ID) }) != nil {
		return
	}
	name := strings.TrimPrefix(sender, "@")
	if name == "" {
		name = strings.TrimPrefix(g.who(ctx, p.UserID), "mattermost:@")
	}
	ans := gatewaywire.Answered{Answer: gatewaywire.AnswerRefuse, Why: cmd.Reason, Command: p.ID,
		By: fmt.Sprintf("mattermost @%s (user %s)", name, p.UserID)}
	if cmd.Approve {
		ans.Answer = gatewaywire.AnswerApprove
	}
	la.answer <- ans
}

// replyPost answers p in its thread.
func (g *Gateway) replyPost(ctx context.Context, p Post, text string) {
	if _, err := g.create(ctx, NewPost{ChannelID: p.ChannelID, RootID: p.Thread(), Message: text}); err != nil {
		g.logf("cannot reply to post %s: %v", p.ID, err)
	}
}
