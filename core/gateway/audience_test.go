package gateway_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/gateway"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/loopwire"
	"boxmaker/core/testpeer/fakemattermost"
	"boxmaker/runbook"
)

// The first session the stub loop makes.
const session1 = "20261201-000000-00000001"

// readsPrivate is a turn that says something, reads a private file
// (brokerd raises the session to private as the result comes), and then
// tells what it read.
func (w *world) readsPrivate(secret string) {
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		emit(loopwire.Event{Event: loopwire.EventText, Text: "Reading it."})
		emit(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c1", Tool: "read_file", Arguments: []byte(`{"path":"/home/ann/notes.md"}`)})
		w.setTaint(session1, "private")
		emit(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c1", Outcome: "allowed"})
		emit(loopwire.Event{Event: loopwire.EventText, Text: "The notes say: " + secret})
		return nil
	}
}

// postsWith are the posts of channel whose message holds s.
func (w *world) postsWith(channel, s string) []fakemattermost.Post {
	var out []fakemattermost.Post
	for _, p := range w.mm.ChannelPosts(channel) {
		if strings.Contains(p.Message, s) || strings.Contains(fakemattermostText(p), s) {
			out = append(out, p)
		}
	}
	return out
}

// fakemattermostText is everything a post shows: its message and its
// attachments' texts.
func fakemattermostText(p fakemattermost.Post) string {
	var b strings.Builder
	b.WriteString(p.Message)
	if as, ok := p.Props["attachments"].([]any); ok {
		for _, a := range as {
			if m, ok := a.(map[string]any); ok {
				for _, k := range []string{"fallback", "title", "text"} {
					s, _ := m[k].(string)
					b.WriteString("\n" + s)
				}
			}
		}
	}
	return b.String()
}

// The allowed user asks in an open channel that a stranger reads for a
// private file (issue 24, item 3): what the model says after reading it
// goes to her by direct message, and the thread gets a note saying so.
// What was said while the session was public stays in the thread.
func TestAPrivateReplyInASharedChannelGoesToTheAskerByDM(t *testing.T) {
	w := newWorld(t)
	w.readsPrivate("launch code 4242")
	w.start()
	ch := w.mm.NewChannel("town-square", w.bot.ID, w.owner.ID, w.stranger.ID)
	ask, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "@boxmaker what do my notes say?")
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	w.waitFor("the private text in the owner's DM", func() bool { return len(w.postsWith(dm.ID, "launch code 4242")) == 1 })
	note := "_(Boxmaker's reply went to @ann by direct message: this conversation has read private data, and user " + w.stranger.ID +
		", a member, can read this channel and is not in gatewayd's [allow] users; " + runbook.Link(runbook.GatewayReplyMoved) + ")_"
	ps := w.waitForPosts("the thread's posts", ask.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 3 && ps[2].Message == note
	})
	if ps[0].Message != "Reading it." || ps[1].Message != "tool ` read_file /home/ann/notes.md `: allowed" {
		t.Errorf("the thread: %q, %q", ps[0].Message, ps[1].Message)
	}
	if got := w.postsWith(ch.ID, "4242"); len(got) != 0 {
		t.Errorf("the private text is in the channel: %+v", got)
	}
	got := w.postsWith(dm.ID, "launch code 4242")[0]
	head, ok := w.mm.Post(got.RootID)
	if !ok || head.UserID != w.bot.ID || !strings.Contains(head.Message, "/_redirect/pl/"+ask.ID) || got.Message != "The notes say: launch code 4242" {
		t.Errorf("the DM: %+v under %+v", got, head)
	}
	if !strings.Contains(w.log.String(), "post "+ask.ID+": the reply goes on in a direct message to @ann") {
		t.Errorf("the log:\n%s", w.log)
	}
	// The thread's next turn, at private from its start, is all in the
	// DM: its placeholder is the note.
	w.loop.hook = nil
	next, _ := w.mm.PostAs(w.owner.ID, ch.ID, ask.ID, "and the rest?")
	w.waitFor("the second reply in the DM", func() bool { return len(w.postsWith(dm.ID, "echo: and the rest?")) == 1 })
	w.waitForPosts("the second note", ask.ID, func(ps []fakemattermost.Post) bool {
		return len(ps) == 4 && ps[3].Message == note && ps[3].Props[gateway.PropReplyTo] == next.ID
	})
}

// Where every reader is allowed (a private channel of allowed users, a
// DM), a reply stays in place whatever the session read; an open
// channel is read by its whole team, and a member added later is seen.
func TestAPrivateReplyStaysWhereEveryReaderIsAllowed(t *testing.T) {
	w := newWorld(t)
	w.setTaint(session1, "secret")
	w.start()
	priv := w.mm.NewPrivateChannel("ann-and-bob", w.bot.ID, w.owner.ID, w.other.ID)
	ask, _ := w.mm.PostAs(w.owner.ID, priv.ID, "", "@boxmaker summarise the secret plan")
	w.waitForReplies("the reply in place", ask.ID, "echo: summarise the secret plan")
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	if ps := w.mm.ChannelPosts(dm.ID); len(ps) != 0 {
		t.Errorf("the DM has posts: %+v", ps)
	}
	// A stranger joins; the next turn in the thread goes by DM.
	w.mm.AddMember(priv.ID, w.stranger.ID)
	w.mm.PostAs(w.owner.ID, priv.ID, ask.ID, "and now?")
	w.waitFor("the reply in the DM", func() bool { return len(w.postsWith(dm.ID, "echo: and now?")) == 1 })
	if got := w.postsWith(priv.ID, "echo: and now?"); len(got) != 0 {
		t.Errorf("the reply is in the channel the stranger joined: %+v", got)
	}

	// An open channel whose members are all allowed, in a team with a
	// stranger: the stranger can open it and read.
	w.setTaint("20261201-000000-00000003", "private")
	open := w.mm.NewChannel("ann-and-bob-open", w.bot.ID, w.owner.ID, w.other.ID)
	q, _ := w.mm.PostAs(w.owner.ID, open.ID, "", "@boxmaker once more")
	w.waitFor("the open channel's reply in the DM", func() bool { return len(w.postsWith(dm.ID, "echo: once more")) == 1 })
	ps := w.waitForPosts("the note", q.ID, func(ps []fakemattermost.Post) bool { return len(ps) == 1 && strings.HasPrefix(ps[0].Message, "_(") })
	if !strings.Contains(ps[0].Message, "user "+w.stranger.ID+", a member of the channel's team") {
		t.Errorf("the note: %q", ps[0].Message)
	}
}

// When brokerd cannot say what the session read, the reply is treated
// as above public.
func TestAReplyWhoseTaintIsUnknownIsNotPostedWhereAStrangerReads(t *testing.T) {
	w := newWorld(t)
	w.taintErr = errors.New("dial unix state.sock: connect: no such file or directory")
	w.start()
	ch := w.mm.NewChannel("town-square", w.bot.ID, w.owner.ID, w.stranger.ID)
	ask, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "@boxmaker hello")
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	w.waitFor("the reply in the DM", func() bool { return len(w.postsWith(dm.ID, "echo: hello")) == 1 })
	ps := w.waitForPosts("the note", ask.ID, func(ps []fakemattermost.Post) bool { return len(ps) == 1 && strings.HasPrefix(ps[0].Message, "_(") })
	if !strings.Contains(ps[0].Message, "brokerd could not say what this conversation has read (dial unix state.sock") {
		t.Errorf("the note: %q", ps[0].Message)
	}
}

// An approval of a session above public, asked in a thread a stranger
// reads: the thread's request names the tool, not the call; each
// approver has the whole call by DM; !approve works in either, and the
// settled edit in the thread shows no more.
func TestAnApprovalsArgumentsAreShownOnlyWhereTheReplyCouldBe(t *testing.T) {
	w := newWorld(t)
	w.start()
	ch := w.mm.NewChannel("town-square", w.bot.ID, w.owner.ID, w.stranger.ID)
	ask, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "@boxmaker hello")
	w.waitForReplies("the public reply in place", ask.ID, "echo: hello")
	w.setTaint(session1, "private")
	p := w.pending("abc234") // session1's
	p.Arguments = `{"path":"/srv/notes/salaries.txt"}`
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: p}, nil)
	inThread := w.approvalPost(ch.ID, p.ID)
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	inDM := w.approvalPost(dm.ID, p.ID)
	if s := fakemattermostText(inThread); strings.Contains(s, "salaries") || !strings.Contains(s, "read_file") ||
		!strings.Contains(s, runbook.Link(runbook.GatewayReplyMoved)) || !strings.Contains(s, "!approve abc234") {
		t.Errorf("the thread's request shows:\n%s", s)
	}
	if s := fakemattermostText(inDM); !strings.Contains(s, "/srv/notes/salaries.txt") {
		t.Errorf("the approver's DM lacks the call:\n%s", s)
	}
	cmd, _ := w.mm.PostAs(w.owner.ID, ch.ID, ask.ID, "!approve abc234")
	w.waitForHeld(cmd)
	var ans gatewaywire.Answered
	w.call(gatewaywire.KindApprovalWait, gatewaywire.Wait{ID: p.ID, CallHash: p.CallHash, WaitMS: 5000}, &ans)
	if ans.Answer != "approve" || ans.Command != cmd.ID {
		t.Fatalf("the answer: %+v", ans)
	}
	w.call(gatewaywire.KindApprovalSettle, gatewaywire.Settle{ID: p.ID, CallHash: p.CallHash, Outcome: gatewaywire.OutcomeApproved,
		By: ans.By, Command: cmd.ID}, nil)
	w.waitFor("the thread's request settled", func() bool {
		got, _ := w.mm.Post(inThread.ID)
		return strings.Contains(got.Message, "approved by")
	})
	if got, _ := w.mm.Post(inThread.ID); strings.Contains(fakemattermostText(got), "salaries") {
		t.Errorf("the settled request shows the call:\n%s", fakemattermostText(got))
	}
	if got, _ := w.mm.Post(inDM.ID); !strings.Contains(fakemattermostText(got), "salaries") {
		t.Errorf("the approver's settled request:\n%s", fakemattermostText(got))
	}
}

// A reader gatewayd hears of by no event (a user who joins the team of
// an open channel) is seen once what it learnt of the channel is older
// than its short life (10 s).
func TestAReaderJoiningWithoutAnEventIsSeenAfterTheCacheLife(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	skew := time.Duration(0)
	w.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(skew)
	}
	w.setTaint(session1, "secret")
	w.start()
	open := w.mm.NewChannel("ann-and-bob", w.bot.ID, w.owner.ID, w.other.ID)
	ask, _ := w.mm.PostAs(w.owner.ID, open.ID, "", "@boxmaker first")
	w.waitForReplies("the reply in place", ask.ID, "echo: first")
	w.mm.JoinTeam(w.stranger.ID)
	mu.Lock()
	skew = 11 * time.Second
	mu.Unlock()
	w.mm.PostAs(w.owner.ID, open.ID, ask.ID, "second")
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	w.waitFor("the second reply in the DM", func() bool { return len(w.postsWith(dm.ID, "echo: second")) == 1 })
	if got := w.postsWith(open.ID, "echo: second"); len(got) != 0 {
		t.Errorf("the reply is in the channel the stranger can read: %+v", got)
	}
}
