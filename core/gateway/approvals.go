package gateway

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/policy"
	"boxmaker/core/termsafe"
	"boxmaker/runbook"
)

// liveApproval is an approval brokerd's courier is attached to: its
// answer from Mattermost is handed over at the courier's next wait.
type liveApproval struct {
	p      brokerwire.Pending
	answer chan gatewaywire.Answered // buffered 1: the held command, once
	sent   bool                      // the held command is in answer, or was taken from it
}

// heldWithoutCourier is how long a command is held for an approval no
// courier of brokerd's is attached to (a gatewayd that just started waits
// for the courier's next try, every 5 s) before it is told brokerd is not
// waiting for it.
const heldWithoutCourier = 30 * time.Second

// Handlers are gateway.sock's kinds (core/gatewaywire).
func (g *Gateway) Handlers() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		gatewaywire.KindApprovalPost:   daemon.Takes(g.handlePost),
		gatewaywire.KindApprovalWait:   daemon.Takes(g.handleWait),
		gatewaywire.KindApprovalSettle: daemon.Takes(g.handleSettle),
	}
}

// errNoApprovers is approval.post's answer without [approvals] users.
var errNoApprovers = errors.New("gatewayd.toml has no [approvals] users: no one could answer it in Mattermost")

func (g *Gateway) handlePost(ctx context.Context, _ daemon.Peer, req gatewaywire.Post, _ *daemon.Stream) (any, error) {
	p := req.Approval
	if !approvalIDRE().MatchString(p.ID) || p.CallHash == "" {
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
	} else {
		// The courier posts again after a failed wait: an answer handed
		// to that wait may not have reached brokerd, so it is handed over
		// again (brokerd takes one answer; a second is not pending).
		select {
		case <-la.answer:
		default:
		}
		la.sent = false
	}
	g.mu.Unlock()
	defer g.handOver(ctx, p.ID)
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
			Expires: p.Expires.UnixMilli(), Summary: approval.Summary(p), Tool: termsafe.Line(p.Tool)}
		pruneApprovals(s, g.o.Now())
	}); err != nil {
		return nil, err
	}
	g.logf("approval %s posted in Mattermost (%d posts)", p.ID, len(posts))
	return gatewaywire.Posted{Posts: len(posts)}, nil
}

// postApproval posts p in the thread of the session that asked, when it
// came from Mattermost, else as a DM to each approver. A thread where the
// session's text may not be posted (D842) gets the request without the
// call's arguments, and each approver the whole of it by DM.
func (g *Gateway) postApproval(ctx context.Context, p brokerwire.Pending) ([]ApprovalPost, error) {
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
	why := ""
	if len(where) > 0 {
		taint, taintErr := g.sessionTaint(ctx, p.Session)
		showsFile := taintErr == nil && taint == policy.Public.String() && showsCurrentFile(p)
		if showsFile {
			// A write_file's diff shows the file as it is now, which the
			// session has not read and whose class no grant of its says:
			// it is shown only where every reader is allowed, as a
			// private session's arguments are.
			taint = policy.Private.String()
		}
		for i := range where {
			if pl := g.place(ctx, where[i].Channel, taint, taintErr); !pl.here {
				where[i].Redacted, why = true, pl.why
				if showsFile {
					why = "the call's diff shows the file as it is now, and " + strings.TrimPrefix(pl.why, "this conversation has read private data, and ")
				}
			}
		}
	}
	if len(where) == 0 || why != "" {
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
	var posts []ApprovalPost
	var firstErr error
	for _, w := range where {
		msg, box := approvalMessage(p, me.Username, g.o.Now())
		if w.Redacted {
			msg, box = redactedApprovalMessage(p, me.Username, g.o.Now(), why)
		}
		got, err := g.create(ctx, NewPost{ChannelID: w.Channel, RootID: w.Root, Message: msg,
			Props: map[string]any{PropApproval: p.ID, "attachments": []any{box}}})
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

// approvalMessage is an approval's post: its head line as the message,
// and in a message attachment (the box no text of the model's can make,
// D450) the whole call as bxctl approvals show renders it
// (core/approval), its expiry, and how to answer. The rendering is in a
// code block whose fence is longer than any run of backticks in it, so
// nothing the model wrote can end it.
func approvalMessage(p brokerwire.Pending, bot string, now time.Time) (string, map[string]any) {
	var b strings.Builder
	approval.Render(&b, p, approval.Options{Now: now, More: "bxctl approvals show " + p.ID + " --full shows it all"})
	body := b.String()
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	head := fmt.Sprintf("**Boxmaker asks for approval `%s`**: %s\n", p.ID, codeSpan(approval.Summary(p)))
	foot := answerLine(p, bot, now)
	room := MaxPostRunes - len([]rune(head)) - len([]rune(foot)) - 2*len(fence) - 64
	if r := []rune(body); len(r) > room {
		body = string(r[:room]) + "\n[cut: bxctl approvals show " + p.ID + " --full shows it all]\n"
	}
	text := fence + "text\n" + body + fence + "\n" + foot
	return head, map[string]any{"fallback": strings.TrimSpace(head), "color": approvalColour,
		"title": "Approval " + p.ID + ": the whole call", "text": text, "footer": approvalFooter}
}

// redactedApprovalMessage is an approval's post in a thread where the
// session's text may not be shown: its tool, not its arguments, and where
// the whole call is.
func redactedApprovalMessage(p brokerwire.Pending, bot string, now time.Time, why string) (string, map[string]any) {
	head := fmt.Sprintf("**Boxmaker asks for approval `%s`**: %s (the call is sent to the approvers by direct message)\n", p.ID, codeSpan(termsafe.Line(p.Tool)))
	text := fmt.Sprintf("The call's arguments are not shown in this thread: %s. Each approver has the whole call by direct message, "+
		"and `bxctl approvals show %s` shows it; %s.\n\n", why, p.ID, runbook.Link(runbook.GatewayReplyMoved)) + answerLine(p, bot, now)
	return head, map[string]any{"fallback": strings.TrimSpace(head), "color": approvalColour,
		"title": "Approval " + p.ID + ": " + termsafe.Line(p.Tool) + ", its call sent by direct message", "text": text, "footer": approvalFooter}
}

// answerLine says when an approval expires and how to answer it.
func answerLine(p brokerwire.Pending, bot string, now time.Time) string {
	return fmt.Sprintf("It expires at %s (in %s). Answer in this thread with `!approve %s` or `!refuse %s [reason]`; "+
		"where two Boxmakers share the thread, `@%s !approve %s`.", p.Expires.UTC().Format(time.RFC3339),
		p.Expires.Sub(now).Round(time.Second), p.ID, p.ID, termsafe.Line(bot), p.ID)
}

// settledProps are an ended approval's props: its box says how it ended.
func settledProps(id, what, summary string) map[string]any {
	return map[string]any{PropApproval: id, "attachments": []any{map[string]any{
		"fallback": "Approval " + id + ": " + what, "color": settledColour,
		"title": "Approval " + id + ": " + what, "text": codeSpan(summary), "footer": approvalFooter}}}
}

func (g *Gateway) handleWait(ctx context.Context, _ daemon.Peer, req gatewaywire.Wait, _ *daemon.Stream) (any, error) {
	g.mu.Lock()
	la := g.live[req.ID]
	g.mu.Unlock()
	if la == nil || la.p.CallHash != req.CallHash {
		return nil, fmt.Errorf("approval %s is not posted by this gatewayd (post it again)", req.ID)
	}
	// A held command whose thread could not be read at the post is tried
	// again at each wait.
	g.handOver(ctx, req.ID)
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

func (g *Gateway) handleSettle(ctx context.Context, _ daemon.Peer, req gatewaywire.Settle, _ *daemon.Stream) (any, error) {
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
			if err := g.answerHeld(ctx, req.Command, mattermostText(fmt.Sprintf("approval %s: %s", req.ID, termsafe.Line(req.Text))), false); err != nil {
				return nil, err
			}
		}
		return gatewaywire.Settled{}, nil
	}
	// Commands held for it that did not answer it are told how it ended.
	var others []string
	g.state.Read(func(s *State) {
		for _, c := range s.Commands {
			if c.Approval == req.ID && c.CallHash == req.CallHash && c.Post != req.Command {
				others = append(others, c.Post)
			}
		}
	})
	edited := 0
	for _, p := range a.Posts {
		summary := a.Summary
		if p.Redacted {
			summary = a.Tool
		}
		msg := fmt.Sprintf("**Approval `%s`: %s**\n%s", req.ID, what, codeSpan(summary))
		if err := g.patchProps(ctx, p.Post, msg, settledProps(req.ID, what, summary)); err == nil {
			edited++
		} else {
			g.logf("approval %s: cannot edit its post %s: %v", req.ID, p.Post, err)
		}
	}
	// The replies come before the record that ends their commands, each
	// only when its thread has none yet: a settle told again after a kill
	// between the two (brokerd's courier tries again while gatewayd
	// restarts) replies once.
	g.replyMu.Lock()
	defer g.replyMu.Unlock()
	if req.Command != "" {
		g.replyTo(ctx, req.Command, fmt.Sprintf("approval %s %s", req.ID, what))
	}
	for _, c := range others {
		g.replyTo(ctx, c, fmt.Sprintf("approval %s is no longer pending: %s", req.ID, what))
	}
	if err := g.update(func(s *State) {
		if x := s.Approvals[req.ID]; x != nil && x.CallHash == req.CallHash {
			x.Settled = what
		}
		for _, c := range slices.Clone(s.Commands) {
			if c.Approval == req.ID && c.CallHash == req.CallHash {
				s.dropHeld(c.Post)
			}
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
	case gatewaywire.OutcomeWithdrawn:
		return "withdrawn: the reply that asked was stopped"
	}
	return termsafe.Line(s.Outcome)
}

// pruneApprovals forgets approvals a day after they expired, settled or
// not (one whose settle never came ended in brokerd long before).
func pruneApprovals(s *State, now time.Time) {
	for id, a := range s.Approvals {
		if now.UnixMilli()-a.Expires > int64(24*time.Hour/time.Millisecond) {
			delete(s.Approvals, id)
		}
	}
}

// command takes !approve ID or !refuse ID [reason] from a post: it
// records the command as held or handled, with pass (the post's cursor
// moved past it) in the same write, and reports whether it did; false:
// the command was not for this gatewayd, and nothing is recorded.
func (g *Gateway) command(ctx context.Context, p Post, msg Message, channelType, sender string, live bool, pass func(s *State)) bool {
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
	// The reply comes before the record that p is handled: a kill between
	// leaves p behind the cursor on disk, and the next gatewayd, reading
	// it again, finds the reply in its thread (a post not live may have
	// one) instead of replying twice.
	reply := func(text string) bool {
		g.replyMu.Lock()
		defer g.replyMu.Unlock()
		g.replyPost(ctx, p, text, !live)
		g.update(func(s *State) {
			pass(s)
			s.Handled = append(s.Handled, p.ID)
		})
		return true
	}
	switch {
	case cmd.Usage != "":
		if addressed || here {
			return reply(cmd.Usage)
		}
		return false
	case !here:
		if addressed {
			return reply(fmt.Sprintf("no approval %s is pending in this thread", cmd.ID))
		}
		return false
	case !slices.Contains(g.cfg.Approvers, p.UserID):
		return reply(fmt.Sprintf("approval %s: only the users in gatewayd's [approvals] users may answer approvals, and you are not one of them", cmd.ID))
	case a.Settled != "":
		return reply(fmt.Sprintf("approval %s is no longer pending: %s", cmd.ID, a.Settled))
	case g.o.Now().UnixMilli() > a.Expires:
		return reply(fmt.Sprintf("approval %s is no longer pending: it expired at %s", cmd.ID, time.UnixMilli(a.Expires).UTC().Format(time.RFC3339)))
	}
	var held bool
	g.state.Read(func(s *State) { _, held = s.Held(cmd.ID, a.CallHash) })
	if held {
		return reply(fmt.Sprintf("approval %s is being answered already", cmd.ID))
	}
	name := strings.TrimPrefix(sender, "@")
	if name == "" {
		name = strings.TrimPrefix(g.who(ctx, p.UserID), "mattermost:@")
	}
	hc := HeldCommand{Post: p.ID, Approval: cmd.ID, CallHash: a.CallHash, Answer: brokerwire.Refuse, Why: cmd.Reason,
		By: fmt.Sprintf("mattermost @%s (user %s)", termsafe.Line(name), p.UserID), At: g.o.Now().UnixMilli()}
	if cmd.Approve {
		hc.Answer = brokerwire.Approve
	}
	// On disk before brokerd can have it: a gatewayd killed from here on
	// hands it over again when brokerd's courier comes back (D451).
	if g.update(func(s *State) {
		pass(s)
		s.Commands = append(s.Commands, hc)
	}) != nil {
		return true
	}
	g.mu.Lock()
	g.unanswered[hc.Post] = true
	g.mu.Unlock()
	g.handOver(ctx, cmd.ID)
	return true
}

// handOver gives the command held for approval id to the courier's wait,
// once per attachment, when a courier is attached. A command a stopped
// gatewayd held may have had its reply already (a kill came after the
// reply and before the record that ended it): its thread is read first,
// and a command answered so is ended, not handed over.
func (g *Gateway) handOver(ctx context.Context, id string) {
	g.mu.Lock()
	la := g.live[id]
	g.mu.Unlock()
	if la == nil {
		return
	}
	hc, ok := HeldCommand{}, false
	g.state.Read(func(s *State) { hc, ok = s.Held(id, la.p.CallHash) })
	if !ok || !g.heldUnanswered(ctx, hc) {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.live[id] != la || la.sent {
		return
	}
	la.sent = true
	la.answer <- gatewaywire.Answered{Answer: hc.Answer, By: hc.By, Why: hc.Why, Command: hc.Post}
}

// sweepHeld answers the held commands no courier came for: their approval
// settled while gatewayd was away (told how), or no courier of brokerd's
// attached within heldWithoutCourier (brokerd is not waiting for it).
func (g *Gateway) sweepHeld(ctx context.Context, started time.Time) {
	now := g.o.Now()
	attached := map[string]string{} // approval id -> call hash of the courier's
	g.mu.Lock()
	for id, la := range g.live {
		attached[id] = la.p.CallHash
	}
	g.mu.Unlock()
	var drop []HeldCommand
	var why []string
	g.state.Read(func(s *State) {
		for _, c := range s.Commands {
			a := s.Approvals[c.Approval]
			since := time.UnixMilli(c.At)
			if started.After(since) {
				since = started
			}
			switch {
			case a != nil && a.CallHash == c.CallHash && a.Settled != "":
				drop, why = append(drop, c), append(why, fmt.Sprintf("approval %s is no longer pending: %s", c.Approval, a.Settled))
			case attached[c.Approval] != c.CallHash && now.Sub(since) > heldWithoutCourier && time.UnixMilli(c.At).Before(started):
				// Taken by a gatewayd that stopped: brokerd may have
				// recorded it before the stop, or never had it.
				drop, why = append(drop, c), append(why, fmt.Sprintf("approval %s: gatewayd was stopped after it took this answer, "+
					"and brokerd has not said how the approval ended: bxctl approvals shows whether it still waits, "+
					"and brokerd's audit log whether this answer was recorded", c.Approval))
			case attached[c.Approval] != c.CallHash && now.Sub(since) > heldWithoutCourier:
				drop, why = append(drop, c), append(why, fmt.Sprintf("approval %s is not pending now: brokerd is not waiting for it (bxctl approvals lists those that wait)", c.Approval))
			}
		}
	})
	if len(drop) == 0 {
		return
	}
	for i, c := range drop {
		if g.answerHeld(ctx, c.Post, why[i], true) != nil {
			return
		}
	}
}

// showsCurrentFile says whether p's box shows something of the file a
// write_file replaces (its diff), beyond what the call itself carries.
func showsCurrentFile(p brokerwire.Pending) bool {
	return p.Change != nil && p.Change.Diff != ""
}
