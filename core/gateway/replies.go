package gateway

import (
	"context"
	"errors"
	"time"
)

// The replies gatewayd makes to a post that are not a turn's (a command's
// usage or refusal, how a held command's approval ended, a held command
// dropped) are kept exactly once across a kill as a turn's are
// (docs/specs/gateway.md 5.2): each carries PropReplyTo naming the post;
// it is made before the record that the post is handled; and where the
// post may be met again after a crash (read again over REST, a held
// command swept or settled again, handed over again), its thread is read
// first for gatewayd's reply, which, when there, stands for the reply.

// replyTo answers the post id in its thread, unless gatewayd's reply to
// it is there already.
func (g *Gateway) replyTo(ctx context.Context, id, message string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	p, err := g.mm.GetPost(cctx, id)
	cancel()
	if err != nil {
		g.logf("cannot reply to post %s: %v", id, err)
		return
	}
	g.replyPost(ctx, p, message, true)
}

// replyPost answers p in its thread; with search, only when the thread
// has no reply of gatewayd's to p yet.
func (g *Gateway) replyPost(ctx context.Context, p Post, text string, search bool) {
	if search {
		found, err := g.findReply(context.WithoutCancel(ctx), p.Thread(), p.ID)
		if err != nil {
			// A reply twice is better than none.
			g.logf("post %s: cannot read its thread for gatewayd's reply, so it is answered without knowing: %v", p.ID, err)
		} else if found != nil {
			return
		}
	}
	if _, err := g.create(ctx, NewPost{ChannelID: p.ChannelID, RootID: p.Thread(), Message: text,
		Props: map[string]any{PropReplyTo: p.ID}}); err != nil {
		g.logf("cannot reply to post %s: %v", p.ID, err)
	}
}

// answerHeld replies text to the held command post, and then ends it
// (handled); with onlyHeld, nothing is done when it is no longer held
// (another reply ended it meanwhile).
func (g *Gateway) answerHeld(ctx context.Context, post, text string, onlyHeld bool) error {
	g.replyMu.Lock()
	defer g.replyMu.Unlock()
	if onlyHeld {
		var held bool
		g.state.Read(func(s *State) { held = s.Waiting(post) })
		if !held {
			return nil
		}
	}
	g.replyTo(ctx, post, text)
	return g.update(func(s *State) { s.dropHeld(post) })
}

// heldUnanswered reports whether the held command hc may be handed over:
// it has no reply. One a stopped gatewayd held is looked up in its thread
// once; found answered (that gatewayd was killed between its reply and
// the record ending it), it is ended now. A thread that cannot be read is
// tried again at the courier's next wait.
func (g *Gateway) heldUnanswered(ctx context.Context, hc HeldCommand) bool {
	g.mu.Lock()
	known := g.unanswered[hc.Post]
	g.mu.Unlock()
	if known {
		return true
	}
	g.replyMu.Lock()
	defer g.replyMu.Unlock()
	var held bool
	g.state.Read(func(s *State) { held = s.Waiting(hc.Post) })
	if !held {
		return false
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	p, err := g.mm.GetPost(cctx, hc.Post)
	cancel()
	var found *Post
	var ae *APIError
	switch {
	case errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 403):
		err = nil // the command is gone: nothing can be in its thread for it
	case err == nil:
		found, err = g.findReply(context.WithoutCancel(ctx), p.Thread(), p.ID)
	}
	if err != nil {
		g.logf("approval %s: cannot read the thread of command %s for a reply, so it is not handed over yet: %v", hc.Approval, hc.Post, err)
		return false
	}
	if found != nil {
		g.logf("approval %s: command %s was answered by a gatewayd that stopped before it recorded so; not handed over", hc.Approval, hc.Post)
		g.update(func(s *State) { s.dropHeld(hc.Post) })
		return false
	}
	g.mu.Lock()
	g.unanswered[hc.Post] = true
	g.mu.Unlock()
	return true
}
