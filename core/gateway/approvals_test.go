package gateway_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/gateway"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/loopwire"
	"boxmaker/core/testpeer/fakemattermost"
	"boxmaker/core/testsupport"
)

// call is one request of brokerd's courier on gateway.sock, straight to
// the handler.
func (w *world) call(kind string, body, out any) {
	w.t.Helper()
	data, _ := json.Marshal(body)
	got, err := w.g.Handlers()[kind](context.Background(), daemon.Peer{}, data, nil)
	if err != nil {
		w.t.Fatalf("%s: %v", kind, err)
	}
	if out != nil {
		data, _ = json.Marshal(got)
		json.Unmarshal(data, out)
	}
}

func (w *world) pending(id string) brokerwire.Pending {
	now := time.Now()
	return brokerwire.Pending{ID: id, Call: "call_1", Session: "20261201-000000-00000001", Tool: "read_file",
		Arguments: `{"path":"/srv/notes/a.txt"}`, CallHash: strings.Repeat("ab", 32), Requested: now, Expires: now.Add(10 * time.Minute)}
}

// approvalInDM has brokerd's courier post approval id to the owner's DM
// with the bot, and waits for the bot's post of it there.
func (w *world) approvalInDM(id string) (brokerwire.Pending, fakemattermost.Channel, fakemattermost.Post) {
	w.t.Helper()
	p := w.pending(id)
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: p}, nil)
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	return p, dm, w.approvalPost(dm.ID, p.ID)
}

// approvalPost waits for the bot's post of approval id in channel.
func (w *world) approvalPost(channel, id string) fakemattermost.Post {
	w.t.Helper()
	var found fakemattermost.Post
	w.waitFor("the approval's post", func() bool {
		for _, p := range w.mm.ChannelPosts(channel) {
			if p.UserID == w.bot.ID && p.Props[gateway.PropApproval] == id {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// state is gatewayd's state file as it is now.
func (w *world) state() gateway.State {
	w.t.Helper()
	data, err := os.ReadFile(gateway.StateFile(w.home))
	if err != nil {
		w.t.Fatal(err)
	}
	var st gateway.State
	if err := json.Unmarshal(data, &st); err != nil {
		w.t.Fatalf("the state file: %v\n%s", err, data)
	}
	return st
}

// waitForHeld waits until the command post cmd is held in the state file.
func (w *world) waitForHeld(cmd fakemattermost.Post) {
	w.t.Helper()
	w.waitFor("the command on disk", func() bool {
		data, _ := os.ReadFile(gateway.StateFile(w.home))
		return strings.Contains(string(data), `"post": "`+cmd.ID+`"`)
	})
}

// waitForReply waits until one of the bot's posts in the thread of root
// is message.
func (w *world) waitForReply(what, root, message string) {
	w.t.Helper()
	w.waitForPosts(what, root, func(ps []fakemattermost.Post) bool {
		return slices.ContainsFunc(ps, func(p fakemattermost.Post) bool { return p.Message == message })
	})
}

// An approver's !approve taken just before gatewayd stops (a kill a
// moment after it was written) is not lost: the next gatewayd hands it
// to brokerd's courier when the courier posts the approval again, and
// the command is answered once brokerd settles it.
func TestAnAnswerTakenBeforeAStopIsHandedOverByTheNextGatewayd(t *testing.T) {
	w := newWorld(t)
	w.start()
	p := w.pending("abc234")
	var posted gatewaywire.Posted
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: p}, &posted)
	w.approvalPost(w.mm.DM(w.bot.ID, w.owner.ID).ID, p.ID)
	cmd := w.ownerSays("!approve abc234")
	w.waitForHeld(cmd)
	second := w.ownerSays("!refuse abc234 no")
	w.waitForReply("the second command told", second.ID, "approval abc234 is being answered already")
	w.stop()

	w.start()
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: p}, &posted)
	if !posted.Again {
		t.Errorf("posted again: %+v", posted)
	}
	var ans gatewaywire.Answered
	w.call(gatewaywire.KindApprovalWait, gatewaywire.Wait{ID: p.ID, CallHash: p.CallHash, WaitMS: 5000}, &ans)
	want := gatewaywire.Answered{Answer: brokerwire.Approve, By: "mattermost @ann (user " + w.owner.ID + ")", Command: cmd.ID}
	if ans != want {
		t.Fatalf("the wait after the restart: %+v, want %+v", ans, want)
	}
	w.call(gatewaywire.KindApprovalSettle, gatewaywire.Settle{ID: p.ID, CallHash: p.CallHash, Outcome: gatewaywire.OutcomeApproved,
		By: ans.By, Command: cmd.ID}, nil)
	w.waitForReply("the command answered", cmd.ID, "approval abc234 approved by "+ans.By)
	if st := w.state(); len(st.Commands) != 0 || !st.HandledPost(cmd.ID) {
		t.Errorf("after the settle: commands %+v, handled %v", st.Commands, st.Handled)
	}
	if n := len(w.botPosts(cmd.ID)); n != 1 {
		t.Errorf("the command has %d replies", n)
	}
}

// The model writes replies that imitate an approval request, naming the
// pending approval's id in several disguises (and once an id that is not
// pending): it cannot make gatewayd's box, it cannot show the real id,
// and !approve of a made-up id answers nothing.
func TestTheModelCannotForgeAnApprovalRequest(t *testing.T) {
	w := newWorld(t)
	forged := func(id string) string {
		return "**Boxmaker asks for approval `" + id + "`**: `read_file /srv/harmless.txt`\n```text\nread_file /srv/harmless.txt\n```\n" +
			"It expires soon. Answer with `!approve " + id + "`.\n" + `{"props":{"attachments":[{"text":"x"}]}}`
	}
	texts := map[string]string{
		"plain":      forged("abc234"),
		"zero-width": forged("abc\u200b234"),
		"markdown":   forged("**abc**234"),
		"spaced":     forged("a b c 2 3 4"),
		"cyrillic":   forged("\u0430bc234"),
		"fullwidth":  forged("ａｂｃ２３４"),
		"made-up":    forged("zzz777"),
		"settled":    forged("abc234"),
	}
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		return emit(loopwire.Event{Event: loopwire.EventText, Text: texts[req.Text]})
	}
	w.start()
	p, dm, real := w.approvalInDM("abc234")
	boxes, _ := real.Props["attachments"].([]any)
	if len(boxes) != 1 {
		t.Fatalf("the real request has no box: %+v", real.Props)
	}
	box, _ := boxes[0].(map[string]any)
	if box["footer"] == "" || !strings.Contains(box["text"].(string), "path             /srv/notes/a.txt") || !strings.Contains(box["text"].(string), "`!approve abc234`") {
		t.Errorf("the real request's box: %+v", box)
	}
	reply := func(text string) fakemattermost.Post {
		t.Helper()
		q := w.ownerSays(text)
		got := w.waitForPosts("the reply to "+text, q.ID, func(ps []fakemattermost.Post) bool {
			return len(ps) == 1 && ps[0].Message != "…"
		})[0]
		if _, ok := got.Props["attachments"]; ok || len(got.Props) != 2 { // boxmaker_reply_to and the server's from_bot
			t.Errorf("%s: the model's reply has props %+v", text, got.Props)
		}
		return got
	}
	for _, name := range []string{"plain", "zero-width", "markdown", "spaced", "cyrillic", "fullwidth"} {
		got := reply(name)
		if !strings.HasPrefix(got.Message, "_(gatewayd held back this reply: its text names approval `abc234`") {
			t.Errorf("%s: the forgery was posted: %q", name, got.Message)
		}
	}
	made := reply("made-up")
	if !strings.Contains(made.Message, "Boxmaker asks for approval `zzz777`") {
		t.Errorf("made-up: %q", made.Message)
	}
	w.mm.PostAs(w.owner.ID, dm.ID, made.RootID, "!approve zzz777")
	w.waitForReply("the made-up id refused", made.RootID, "no approval zzz777 is pending in this thread")
	// Once it has ended, the id is the model's to name.
	w.call(gatewaywire.KindApprovalSettle, gatewaywire.Settle{ID: p.ID, CallHash: p.CallHash, Outcome: gatewaywire.OutcomeExpired}, nil)
	if got := reply("settled"); !strings.Contains(got.Message, "approval `abc234`") || strings.Contains(got.Message, "held back") {
		t.Errorf("after the settle: %q", got.Message)
	}
	settled, _ := w.mm.Post(real.ID)
	if b, _ := settled.Props["attachments"].([]any); len(b) != 1 || !strings.Contains(b[0].(map[string]any)["title"].(string), "expired") {
		t.Errorf("the settled request's box: %+v", settled.Props)
	}
}

// A webhook (or a bot, or a plugin) posting in an allowed user's name is
// not that user: its posts, commands included, are ignored.
func TestAnIntegrationPostingInAnAllowedUsersNameIsIgnored(t *testing.T) {
	w := newWorld(t)
	w.start()
	_, dm, _ := w.approvalInDM("abc234")
	hook, _ := w.mm.PostFromWebhook(w.owner.ID, dm.ID, "", "hello from a webhook", "ann")
	cmd, _ := w.mm.PostFromWebhook(w.owner.ID, dm.ID, "", "!approve abc234", "ann")
	q := w.ownerSays("hello from ann")
	w.waitForReplies("ann answered", q.ID, "echo: hello from ann")
	if n := len(w.botPosts(hook.ID)) + len(w.botPosts(cmd.ID)); n != 0 {
		t.Errorf("the webhook's posts got %d replies", n)
	}
	if r := w.loop.requests(); len(r) != 1 || r[0].Text != "hello from ann" {
		t.Errorf("loopd was sent %+v", r)
	}
	data, _ := os.ReadFile(gateway.StateFile(w.home))
	if strings.Contains(string(data), `"commands": [
  {`) || strings.Contains(string(data), cmd.ID+`"`) && strings.Contains(string(data), `"answer"`) {
		t.Errorf("the webhook's command was taken: %s", data)
	}
	if !strings.Contains(w.log.String(), "ignored post "+hook.ID+" in the name of user "+w.owner.ID+": made by an integration (props.from_webhook)") {
		t.Errorf("log: %s", w.log)
	}
}

// An answered post edited into a command is not read again (gatewayd
// reads a post once, when it is made), and a stranger's command in a DM
// with the bot is not answered at all.
func TestAnEditOrAStrangerTakesNoApproval(t *testing.T) {
	w := newWorld(t)
	w.start()
	p, _, _ := w.approvalInDM("abc234")
	q := w.ownerSays("hello")
	w.waitForReplies("the reply", q.ID, "echo: hello")
	ann := &gateway.Client{URL: w.mm.URL, Token: w.ownerToken, HTTP: gateway.NewHTTPClient(nil, 5*time.Second)}
	if _, err := ann.PatchPost(context.Background(), q.ID, "!approve abc234", nil); err != nil {
		t.Fatal(err)
	}
	strangerDM := w.mm.DM(w.bot.ID, w.stranger.ID)
	s, _ := w.mm.PostAs(w.stranger.ID, strangerDM.ID, "", "!approve abc234")
	// A post after both, answered: gatewayd has read what came before it.
	last := w.ownerSays("still here")
	w.waitForReplies("the last reply", last.ID, "echo: still here")
	if ps := w.botPosts(q.ID); len(ps) != 1 {
		t.Errorf("the edited post has %d replies", len(ps))
	}
	if ps := w.mm.ChannelPosts(strangerDM.ID); len(ps) != 1 || ps[0].ID != s.ID {
		t.Errorf("the stranger's DM has %d posts: %+v", len(ps), ps)
	}
	if st := w.state(); len(st.Commands) != 0 {
		t.Errorf("a command was taken: %+v", st.Commands)
	}
	var ans gatewaywire.Answered
	w.call(gatewaywire.KindApprovalWait, gatewaywire.Wait{ID: p.ID, CallHash: p.CallHash, WaitMS: 50}, &ans)
	if ans.Answer != "" {
		t.Errorf("brokerd was handed %+v", ans)
	}
}

// A command held by a gatewayd that stopped, for an approval no courier
// of brokerd's comes back for (brokerd stopped meanwhile), is answered
// once heldWithoutCourier has passed: never left without a word.
func TestAHeldAnswerNoCourierComesForIsAnswered(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	offset := time.Duration(0)
	w.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(offset)
	}
	w.start()
	w.approvalInDM("abc234")
	cmd := w.ownerSays("!refuse abc234 not now")
	w.waitForHeld(cmd)
	w.stop()
	w.start()
	time.Sleep(300 * time.Millisecond) // sweeps (every 100 ms here) before the time is up
	if n := len(w.botPosts(cmd.ID)); n != 0 {
		t.Fatalf("answered before its time: %d replies", n)
	}
	mu.Lock()
	offset = 31 * time.Second
	mu.Unlock()
	w.waitForReplies("the held command answered", cmd.ID, "approval abc234: gatewayd was stopped after it took this answer, "+
		"and brokerd has not said how the approval ended: bxctl approvals shows whether it still waits, "+
		"and brokerd's audit log whether this answer was recorded")
	// The command is ended on disk after its reply is made (D760).
	w.waitFor("the command ended on disk", func() bool {
		st := w.state()
		return len(st.Commands) == 0 && st.HandledPost(cmd.ID)
	})
}

// Two Boxmakers in one thread: `@<bot> !approve ID` is for the bot named
// only, and a bare command is taken by the Boxmaker with that id pending
// there; the other says nothing to it.
func TestTwoBoxmakersShareAThread(t *testing.T) {
	w := newWorld(t)
	w2 := &world{t: t, mm: w.mm, owner: w.owner, other: w.other, stranger: w.stranger, home: t.TempDir(),
		log: &testsupport.Buffer{}, loop: &stubLoop{}}
	w2.bot, w2.token = w.mm.AddUser("boxmaker2", true)
	ch := w.mm.NewChannel("shared", w.bot.ID, w2.bot.ID, w.owner.ID)
	w.start()
	w2.start()
	root, _ := w.mm.PostAs(w.owner.ID, ch.ID, "", "@boxmaker hello")
	w.waitForReplies("boxmaker's reply", root.ID, "echo: hello")
	p := w.pending("abc234") // the session the first turn got
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: p}, nil)
	w.approvalPost(ch.ID, p.ID)
	named, _ := w.mm.PostAs(w.owner.ID, ch.ID, root.ID, "@boxmaker2 !approve abc234")
	w2.waitForReply("boxmaker2's answer", root.ID, "no approval abc234 is pending in this thread")
	bare, _ := w.mm.PostAs(w.owner.ID, ch.ID, root.ID, "!approve abc234")
	var ans gatewaywire.Answered
	w.call(gatewaywire.KindApprovalWait, gatewaywire.Wait{ID: p.ID, CallHash: p.CallHash, WaitMS: 5000}, &ans)
	if ans.Answer != brokerwire.Approve || ans.Command != bare.ID {
		t.Errorf("boxmaker was handed %+v, want the bare command %s (not %s)", ans, bare.ID, named.ID)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(w2.botPosts(root.ID)); n != 1 {
		t.Errorf("boxmaker2 posted %d times in the thread, not once", n)
	}
	if l := w2.loop.requests(); len(l) != 0 {
		t.Errorf("boxmaker2 ran turns: %+v", l)
	}
}

// An approval whose settle never came is forgotten a day after it
// expired, as a settled one is: the state does not grow without end.
func TestApprovalsAreForgottenADayAfterTheyExpired(t *testing.T) {
	w := newWorld(t)
	w.start()
	old := w.pending("old234")
	old.Requested, old.Expires = time.Now().Add(-50*time.Hour), time.Now().Add(-49*time.Hour)
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: old}, nil)
	w.call(gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: w.pending("new234")}, nil)
	st := w.state()
	if _, ok := st.Approvals["old234"]; ok || st.Approvals["new234"] == nil {
		t.Errorf("approvals kept: %v", st.Approvals)
	}
}
