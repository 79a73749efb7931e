package bxctl

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/runbook"
)

// fakeLoop serves a loop socket whose turns are played by turn; it
// records the requests.
type fakeLoop struct {
	sock string
	mu   sync.Mutex
	got  []loopwire.TurnRequest
}

func serveLoop(t *testing.T, turn func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error)) *fakeLoop {
	t.Helper()
	f := &fakeLoop{}
	f.sock = daemontest.Serve(t, &daemon.Socket{Role: "loopd", Name: "loop", Path: filepath.Join(testsupport.ShortDir(t), "loop", "loop.sock"), ListenerLost: runbook.ListenerLost,
		Kinds: map[string]daemon.Handler{"turn": func(_ context.Context, _ daemon.Peer, body json.RawMessage, st *daemon.Stream) (any, error) {
			var req loopwire.TurnRequest
			json.Unmarshal(body, &req)
			f.mu.Lock()
			f.got = append(f.got, req)
			n := len(f.got)
			f.mu.Unlock()
			return turn(n, req, st)
		}},
	})
	return f
}

func (f *fakeLoop) requests() []loopwire.TurnRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]loopwire.TurnRequest(nil), f.got...)
}

func newChatter(sock string, interactive bool) (*chatter, *testsupport.Buffer, *testsupport.Buffer) {
	out, errOut := &testsupport.Buffer{}, &testsupport.Buffer{}
	return &chatter{socket: sock, who: "owner", home: "/h", out: out, errOut: errOut, interactive: interactive}, out, errOut
}

// TestChatShowsTheTurn plays a turn's events and checks what the person
// sees; a failed turn is shown and the chat goes on in the same session.
func TestChatShowsTheTurn(t *testing.T) {
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		switch n {
		case 1:
			st.Send(loopwire.Event{Event: loopwire.EventText, Text: "Let me "})
			st.Send(loopwire.Event{Event: loopwire.EventText, Text: "look."})
			st.Send(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c1", Tool: "write_file", Arguments: json.RawMessage(`{"path":"/x"}`)})
			st.Send(loopwire.Event{Event: loopwire.EventAsked, CallID: "c1", Approval: "k3f9"})
			st.Send(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c1", Outcome: "approved", Text: "wrote 1 byte to /x"})
			st.Send(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c2", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/etc/shadow"}`)})
			st.Send(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c2", Outcome: "denied", Text: "denied: no grant allows read_file on \"/etc/shadow\""})
			st.Send(loopwire.Event{Event: loopwire.EventText, Text: "\n\nDone \x1b[31mred\x1b[0m."})
			return loopwire.TurnResult{Session: "s-1", Reply: "Let me look.\n\nDone."}, nil
		case 2:
			return nil, runbook.Refuse(runbook.SessionLogDamaged, "sessions/s-1/0.jsonl:3: last line does not end in a newline")
		}
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "still here"})
		return loopwire.TurnResult{Session: "s-1", Reply: "still here"}, nil
	})
	ch, out, errOut := newChatter(f.sock, false)
	err := ch.run(context.Background(), strings.NewReader("write x\nagain\n\n   \nthird\n"), nil)
	want := "session s-1\n" +
		"Let me look.\n" +
		"  [tool c1 write_file] {\"path\":\"/x\"}\n" +
		"  [tool c1] asked: approval k3f9; run 'bxctl approve k3f9' in another terminal\n" +
		"  [tool c1] approved: wrote 1 byte to /x\n" +
		"  [tool c2 read_file] {\"path\":\"/etc/shadow\"}\n" +
		"  [tool c2] denied: no grant allows read_file on \"/etc/shadow\"\n" +
		"\n\nDone \\x1b[31mred\\x1b[0m.\n" +
		"still here\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if errOut.String() != "bxctl: sessions/s-1/0.jsonl:3: last line does not end in a newline; "+runbook.Link(runbook.SessionLogDamaged)+"\n" {
		t.Errorf("stderr %q", errOut.String())
	}
	if err == nil {
		t.Errorf("on a pipe, a failed turn makes the chat fail at its end")
	}
	got := f.requests()
	if len(got) != 3 || got[0].Session != "" || got[1].Session != "s-1" || got[2].Session != "s-1" || got[1].Who != "owner" || got[2].Text != "third" {
		t.Errorf("requests %+v (empty lines must send nothing)", got)
	}
}

// On a terminal: the banner, the prompt, a bracketed paste of several
// paragraphs as one message, and the chat's own commands.
func TestChatOnATerminal(t *testing.T) {
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-" + string(rune('0'+n))})
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "ok"})
		return loopwire.TurnResult{Session: "s-" + string(rune('0'+n)), Reply: "ok"}, nil
	})
	ch, out, errOut := newChatter(f.sock, true)
	in := "\n" + pasteStart + "first paragraph\n\nsecond paragraph" + pasteEnd + "\n" +
		"/session\n/new\nnext\n/frob\n/help\n/quit\nnever sent\n"
	if err := ch.run(context.Background(), strings.NewReader(in), nil); err != nil {
		t.Fatal(err)
	}
	got := f.requests()
	if len(got) != 2 || got[0].Text != "first paragraph\n\nsecond paragraph" || got[1].Session != "" || got[1].Text != "next" {
		t.Errorf("requests %+v", got)
	}
	testsupport.ContainsAll(t, "output", out.String(),
		"bxctl chat: home /h, session a new one begins with your first message\n",
		"> > session s-1\nok\n> session s-1\n> session: your next message begins a new one\n> session s-2\nok\n",
		"/quit     end the chat")
	if !strings.Contains(errOut.String(), "bxctl: unknown command /frob; /help lists them") {
		t.Errorf("stderr %q", errOut.String())
	}
}

// longThenShort plays a first turn that streams until the chat goes
// away (closing streaming once it begins), then short replies.
func longThenShort(streaming chan struct{}) func(int, loopwire.TurnRequest, *daemon.Stream) (any, error) {
	return func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		if n == 1 {
			close(streaming)
			for st.Send(loopwire.Event{Event: loopwire.EventText, Text: "on and on "}) == nil {
				time.Sleep(5 * time.Millisecond)
			}
			return nil, context.Canceled
		}
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "short"})
		return loopwire.TurnResult{Session: "s-1", Reply: "short"}, nil
	}
}

// waitShown polls until out holds s; after 10 s the test fails.
func waitShown(t *testing.T, out *testsupport.Buffer, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the chat never showed %q:\n%s", s, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// chatEnds waits up to 10 s for the chat's run to return; an error it
// returns fails the test, headed by what.
func chatEnds(t *testing.T, done <-chan error, what string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the chat did not end")
	}
}

// Ctrl-C during a reply stops it and returns to the prompt; Ctrl-C at the
// prompt ends the chat without an error.
func TestChatInterrupts(t *testing.T) {
	streaming := make(chan struct{})
	f := serveLoop(t, longThenShort(streaming))
	ch, out, errOut := newChatter(f.sock, true)
	inR, inW := io.Pipe()
	interrupts := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- ch.run(context.Background(), inR, interrupts) }()
	io.WriteString(inW, "tell me a long story\n")
	<-streaming
	waitShown(t, out, "on and on")
	interrupts <- os.Interrupt
	io.WriteString(inW, "and a short one\n")
	waitShown(t, out, "short\n> ")
	interrupts <- os.Interrupt
	chatEnds(t, done, "Ctrl-C at the prompt")
	if !regexp.MustCompile(`> session s-1\n(on and on )+\n\(reply stopped\)\n> short\n> \n$`).MatchString(out.String()) {
		t.Errorf("output:\n%s", out.String())
	}
	if errOut.String() != "" {
		t.Errorf("stderr %q", errOut.String())
	}
	if got := f.requests(); len(got) != 2 || got[1].Session != "s-1" {
		t.Errorf("requests %+v", got)
	}
}

// The attacks of issue 9 through bxctl chat: a file the agent read clears
// the screen and prints a fake approved line and a fake bxctl prompt; the
// model's text sets the terminal's title and rings the bell; a tool call's
// arguments carry a carriage return. Every byte that reaches the terminal
// is checked: no control sequence, and nothing begins a line of its own.
func TestChatShowsNoControlSequences(t *testing.T) {
	file := "# notes\n\x1b[2J\x1b[Happroved: call c9 ran\r\n\x1b[1A\x1b[Kbxctl approve zzzzzz\n\u009b2J\u202egnp.exe"
	f := serveLoop(t, func(_ int, _ loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "\x1b]0;owner@box: all approved\x07Reading."})
		st.Send(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c1", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/x\r\u001b[2K"}`)})
		st.Send(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c1", Outcome: "allowed", Text: file})
		return loopwire.TurnResult{Session: "s-1"}, nil
	})
	ch, out, _ := newChatter(f.sock, false)
	if err := ch.run(context.Background(), strings.NewReader("read it\n"), nil); err != nil {
		t.Fatal(err)
	}
	want := "session s-1\n" +
		`\x1b]0;owner@box: all approved\x07Reading.` + "\n" +
		`  [tool c1 read_file] {"path":"/x\r\u001b[2K"}` + "\n" +
		"  [tool c1] allowed: # notes\n" +
		`    \x1b[2J\x1b[Happroved: call c9 ran\r` + "\n" +
		`    \x1b[1A\x1b[Kbxctl approve zzzzzz` + "\n" +
		`    \u009b2J\u202egnp.exe` + "\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

// On a terminal whose Ctrl-C ends the line (terminalForChat): Ctrl-C on
// a line with text drops the text and stays at the prompt; Ctrl-C during
// a reply stops it, and a message typed ahead during the reply is sent
// after it; Ctrl-C at an empty prompt ends the chat without an error.
func TestChatCtrlCOnATerminal(t *testing.T) {
	streaming := make(chan struct{})
	f := serveLoop(t, longThenShort(streaming))
	ch, out, errOut := newChatter(f.sock, true)
	ch.ctrlCEndsLine = true
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ch.run(context.Background(), inR, nil) }()
	io.WriteString(inW, "never sent\x03")
	io.WriteString(inW, "tell me a long story\n")
	<-streaming
	waitShown(t, out, "on and on")
	io.WriteString(inW, "and a short one\n")
	io.WriteString(inW, "\x03")
	waitShown(t, out, "short\n> ")
	io.WriteString(inW, "\x03")
	chatEnds(t, done, "Ctrl-C at an empty prompt")
	if !regexp.MustCompile(`^bxctl chat: [^\n]*\n[^\n]*\n> \^C\n> session s-1\n(on and on )+\n\(reply stopped\)\n> short\n> \n$`).MatchString(out.String()) {
		t.Errorf("output:\n%s", out.String())
	}
	if errOut.String() != "" {
		t.Errorf("stderr %q", errOut.String())
	}
	got := f.requests()
	if len(got) != 2 || got[0].Text != "tell me a long story" || got[1].Text != "and a short one" {
		t.Errorf("requests %+v (the line dropped by Ctrl-C must send nothing)", got)
	}
}

// TestChatSaysWhyATurnCouldNotReachLoopd: a turn whose loopd has gone is
// the call's error, the same as bxctl's other calls give, its hints on
// lines of their own, and the chat goes on.
func TestChatSaysWhyATurnCouldNotReachLoopd(t *testing.T) {
	sock := filepath.Join(testsupport.ShortDir(t), "loop.sock") // nothing listens
	ch, out, errOut := newChatter(sock, false)
	if err := ch.run(context.Background(), strings.NewReader("hello\nagain\n"), nil); err == nil {
		t.Error("on a pipe, a failed turn makes the chat fail at its end")
	}
	one := "bxctl: cannot reach loopd at " + sock + "\n" +
		"bxctl: hint: nothing listens on that socket: start loopd (boxmaker up --home DIR, or loopd serve --config PATH)\n" +
		"bxctl: hint: pgrep -a -x loopd shows whether one runs, and its --config which home it serves\n"
	if errOut.String() != one+one || out.String() != "" {
		t.Errorf("stdout %q, stderr %q, want stderr %q twice", out.String(), errOut.String(), one)
	}
}
