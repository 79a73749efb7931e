package gateway

import (
	"context"
	"slices"
	"strings"
	"time"
)

// perPage is how many posts one catch-up request asks for (the most the
// server gives).
const perPage = 200

// catchUp reads, in every DM with a user gatewayd answers and in every
// channel with a thread Boxmaker is in, the posts made since its cursor
// (GET /channels/{id}/posts?after=, page by page, never ?since=), and
// takes them in order, as if they had come live: the state's handled
// posts and the cursors keep each from being answered twice.
func (g *Gateway) catchUp(ctx context.Context) error {
	g.mu.Lock()
	me := g.me
	g.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	chans, err := g.mm.MyChannels(cctx, me.ID)
	if err != nil {
		return err
	}
	for _, c := range chans {
		var cur Cursor
		var have, threads bool
		var since int64
		g.state.Read(func(s *State) {
			cur, have = s.Channels[c.ID]
			since = s.Since
			for _, th := range s.Threads {
				if th.Channel == c.ID {
					threads = true
					break
				}
			}
		})
		dm := c.Type == "D" && g.dmWithAllowed(c.Name, me.ID)
		if !dm && !threads {
			continue
		}
		if have && cur.Post != "" && c.LastPostAt != 0 && c.LastPostAt <= cur.At {
			continue
		}
		var posts []Post
		if have && cur.Post != "" {
			for page := 0; ; page++ {
				l, err := g.mm.PostsAfter(cctx, c.ID, cur.Post, page, perPage)
				if err != nil {
					return err
				}
				ps := l.Sorted()
				posts = append(posts, ps...)
				if len(ps) < perPage {
					break
				}
			}
		} else {
			// A channel with no cursor yet: back from the newest post to
			// gatewayd's first start.
			for page := 0; ; page++ {
				l, err := g.mm.Posts(cctx, c.ID, page, perPage)
				if err != nil {
					return err
				}
				ps := l.Sorted()
				older := false
				for _, p := range ps {
					if p.CreateAt > since {
						posts = append(posts, p)
					} else {
						older = true
					}
				}
				if len(ps) < perPage || older {
					break
				}
			}
		}
		slices.SortFunc(posts, func(a, b Post) int {
			if a.CreateAt != b.CreateAt {
				return int(a.CreateAt - b.CreateAt)
			}
			return strings.Compare(a.ID, b.ID)
		})
		for _, p := range posts {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			g.post(ctx, p, c.Type, "", false)
		}
	}
	return nil
}

// dmWithAllowed reports whether a DM channel's name (<idA>__<idB>) is
// the bot's with a user in [allow] users.
func (g *Gateway) dmWithAllowed(name, me string) bool {
	a, b, ok := strings.Cut(name, "__")
	if !ok {
		return false
	}
	other := a
	if a == me {
		other = b
	} else if b != me {
		return false
	}
	return slices.Contains(g.cfg.Allow, other)
}
