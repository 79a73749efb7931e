package gateway

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"boxmaker/core/policy"
	"boxmaker/core/termsafe"
)

// Who can read a channel, as Mattermost's REST API says (D842): a DM is
// read by its two members; a group message and a private channel by their
// members; an open channel by its members and by every member of its
// team, who may open it without joining. gatewayd asks again after
// audienceLife, and at once after a user_added event in the channel, so a
// member added later is seen.

// audienceLife is how long what gatewayd learnt of a channel (its type,
// team and readers) is used before it is asked again.
const audienceLife = 10 * time.Second

// membersPage is how many members one request asks for (the most the
// server gives).
const membersPage = 200

// audience is what gatewayd knows of one channel's readers.
type audience struct {
	at      time.Time
	channel Channel
	// closed: every reader is the bot or in [allow] users.
	closed bool
	// stranger is a reader who is not ("" when closed), for the log.
	stranger string
}

// channelInfo is channel id as Mattermost describes it now (at most
// audienceLife old), with whether all its readers are allowed.
func (g *Gateway) channelInfo(ctx context.Context, id string) (audience, error) {
	now := g.o.Now()
	g.mu.Lock()
	a, ok := g.audiences[id]
	me := g.me.ID
	g.mu.Unlock()
	if ok && now.Sub(a.at) < audienceLife {
		return a, nil
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := g.mm.Channel(cctx, id)
	if err != nil {
		return audience{}, err
	}
	a = audience{at: now, channel: c}
	allowed := func(u string) bool { return u == me || slices.Contains(g.cfg.Allow, u) }
	switch c.Type {
	case "D":
		if !g.dmWithAllowed(c.Name, me) {
			a.stranger = "the other member of the direct message"
		}
	default:
		members, err := g.allPages(func(page int) ([]string, error) {
			ms, err := g.mm.ChannelMembers(cctx, id, page, membersPage)
			ids := make([]string, 0, len(ms))
			for _, m := range ms {
				ids = append(ids, m.UserID)
			}
			return ids, err
		})
		if err != nil {
			return audience{}, err
		}
		if i := slices.IndexFunc(members, func(u string) bool { return !allowed(u) }); i >= 0 {
			a.stranger = "user " + members[i] + ", a member"
		}
		if a.stranger == "" && c.Type == "O" {
			team, err := g.allPages(func(page int) ([]string, error) {
				ms, err := g.mm.TeamMembers(cctx, c.TeamID, page, membersPage)
				ids := make([]string, 0, len(ms))
				for _, m := range ms {
					if m.DeleteAt == 0 {
						ids = append(ids, m.UserID)
					}
				}
				return ids, err
			})
			if err != nil {
				return audience{}, err
			}
			if i := slices.IndexFunc(team, func(u string) bool { return !allowed(u) }); i >= 0 {
				a.stranger = "user " + team[i] + ", a member of the channel's team (an open channel is read without joining it)"
			}
		}
	}
	a.closed = a.stranger == ""
	g.mu.Lock()
	g.audiences[id] = a
	g.mu.Unlock()
	return a, nil
}

// allPages gathers a paged list until a page comes back short.
func (g *Gateway) allPages(page func(n int) ([]string, error)) ([]string, error) {
	var all []string
	for n := 0; ; n++ {
		ids, err := page(n)
		if err != nil {
			return nil, err
		}
		all = append(all, ids...)
		if len(ids) < membersPage {
			return all, nil
		}
		if n > 1000 {
			return nil, fmt.Errorf("more than %d members", len(all))
		}
	}
}

// forgetAudience drops what gatewayd knows of channel id (a member was
// added).
func (g *Gateway) forgetAudience(id string) {
	g.mu.Lock()
	delete(g.audiences, id)
	g.mu.Unlock()
}

// sessionTaint is the session's taint as brokerd's state socket says it
// now ("public", "private", "secret"); an error when it cannot say.
func (g *Gateway) sessionTaint(ctx context.Context, session string) (string, error) {
	if g.o.SessionState == nil {
		return "", errors.New("gatewayd has no brokerd state socket to ask")
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return g.o.SessionState(cctx, session)
}

// placement is whether a session's text may be posted in a channel, and
// why not.
type placement struct {
	here bool
	// why it may not, in words for the thread's note and the DM.
	why string
}

// place says whether text of a session at taint (taintErr: brokerd could
// not say) may be posted in channel: where everyone who can read it may
// (D842). A public session's text may go anywhere; any other only where
// every reader is in [allow] users (or is the bot). What cannot be known
// is taken as the worse.
func (g *Gateway) place(ctx context.Context, channel, taint string, taintErr error) placement {
	if taintErr == nil && taint == policy.Public.String() {
		return placement{here: true}
	}
	a, err := g.channelInfo(ctx, channel)
	if err == nil && a.closed {
		return placement{here: true}
	}
	var what string
	switch {
	case taintErr != nil:
		what = fmt.Sprintf("brokerd could not say what this conversation has read (%v)", taintErr)
	default:
		what = "this conversation has read " + termsafe.Line(taint) + " data"
	}
	switch {
	case err != nil:
		what += fmt.Sprintf(", and gatewayd could not learn who can read this channel (%v)", err)
	default:
		what += ", and " + a.stranger + ", can read this channel and is not in gatewayd's [allow] users"
	}
	return placement{why: what}
}
