package bxctl

import (
	"context"
	"encoding/json"
	"errors"
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

// newEditorChatter is a chatter on a terminal: its line editor reads
// keys and shows the line in out, as the chat shows everything else.
func newEditorChatter(sock string, keys io.Reader) (*chatter, *testsupport.Buffer, *testsupport.Buffer) {
	ch, out, errOut := newChatter(sock, true)
	ch.ed = newLineEditor(keys, out, nil)
	return ch, out, errOut
}

// On a terminal: the banner, the prompt, a bracketed paste of several
// paragraphs as one message, and the chat's own commands.
func TestChatOnATerminal(t *testing.T) {
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-" + string(rune('0'+n))})
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "ok"})
		return loopwire.TurnResult{Session: "s-" + string(rune('0'+n)), Reply: "ok"}, nil
	})
	in := "\r" + pasteStart + "first paragraph\r\rsecond paragraph" + pasteEnd + "\r" +
		"/session\r/new\rnext\r/frob\r/help\r/quit\rnever sent\r"
	ch, out, errOut := newEditorChatter(f.sock, strings.NewReader(in))
	if err := ch.run(context.Background(), nil, nil); err != nil {
		t.Fatal(err)
	}
	got := f.requests()
	if len(got) != 2 || got[0].Text != "first paragraph\n\nsecond paragraph" || got[1].Session != "" || got[1].Text != "next" {
		t.Errorf("requests %+v", got)
	}
	testsupport.ContainsAll(t, "output", out.String(),
		"bxctl chat: home /h, session a new one begins with your first message\n",
		"> [pasted text #1: 3 lines, 33 bytes]\r\nsession s-1\nok\n",
		"> /session\r\nsession s-1\n> /new\r\nsession: your next message begins a new one\n> next\r\nsession s-2\nok\n",
		"/quit     end the chat")
	if !strings.Contains(errOut.String(), "bxctl: unknown command /frob; /help lists them") {
		t.Errorf("stderr %q", errOut.String())
	}
}

// TestChatTakesAnyInput: a paste of 10,000 bytes on one line and a paste
// of several lines are each one message, whole, with a typed word around
// them; a typed line longer than the terminal's 4,095 bytes is sent
// whole; a line ending in a backslash goes on to the next; Up recalls the
// message before. Each failed on the kernel's line editing (a paste or a
// line past 4,095 bytes was cut, and froze the chat).
func TestChatTakesAnyInput(t *testing.T) {
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		return loopwire.TurnResult{Session: "s-1"}, nil
	})
	big := strings.Repeat("0123456789", 1000)
	typed := strings.Repeat("t", 5000)
	lines := "def f():\r\treturn 1\r\x03 not an interrupt\r"
	in := "one " + pasteStart + big + pasteEnd + " two\r" +
		"see: " + pasteStart + lines + pasteEnd + "\r" +
		typed + "\r" +
		"first line\\\rsecond line\r" +
		"\x1b[A\x1b[A\r" + // Up twice: the long typed line again
		"/quit\r"
	ch, _, errOut := newEditorChatter(f.sock, strings.NewReader(in))
	if err := ch.run(context.Background(), nil, nil); err != nil {
		t.Fatal(err)
	}
	got := f.requests()
	want := []string{"one " + big + " two", "see: def f():\n\treturn 1\n\x03 not an interrupt", typed, "first line\nsecond line", typed}
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Text != w {
			t.Errorf("message %d: %d bytes %.80q..., want %d bytes %.80q...", i, len(got[i].Text), got[i].Text, len(w), w)
		}
	}
	if errOut.String() != "" {
		t.Errorf("stderr %q", errOut.String())
	}
}

// TestKeyScannerCutsPastesAndInterrupts: the markers of a paste split
// across reads, a Ctrl-C or a Ctrl-Z inside a paste (text) and outside
// (an interrupt, a suspend), Alt-Enter, and a paste the input ends inside.
func TestKeyScannerCutsPastesAndInterrupts(t *testing.T) {
	var s keyScanner
	var items []keyItem
	for _, chunk := range []string{"ab\x1b", "[20", "0~x\x03\x1ay\x1b[2", "01~c\x03", "\x1b\rd\x1ae", "\x1b[200~tail"} {
		items = append(items, s.feed([]byte(chunk), false)...)
	}
	items = append(items, s.feed(nil, true)...)
	want := []keyItem{{keys: "ab"}, {keys: "x\x03\x1ay", paste: true}, {keys: "c"}, {interrupt: true}, {keys: "\\\rd"}, {suspend: true}, {keys: "e"}, {keys: "tail", paste: true}}
	if len(items) != len(want) {
		t.Fatalf("items %+v, want %+v", items, want)
	}
	for i := range want {
		if items[i] != want[i] {
			t.Errorf("item %d: %+v, want %+v", i, items[i], want[i])
		}
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

// On a terminal (the line editor): Ctrl-C on a line with text drops the
// text and stays at the prompt; Ctrl-C during a reply stops it, and a
// message typed ahead during the reply is sent after it; Ctrl-C at an
// empty prompt ends the chat without an error.
func TestChatCtrlCOnATerminal(t *testing.T) {
	streaming := make(chan struct{})
	f := serveLoop(t, longThenShort(streaming))
	inR, inW := io.Pipe()
	ch, out, errOut := newEditorChatter(f.sock, inR)
	done := make(chan error, 1)
	go func() { done <- ch.run(context.Background(), nil, nil) }()
	io.WriteString(inW, "never sent\x03")
	io.WriteString(inW, "tell me a long story\r")
	<-streaming
	waitShown(t, out, "on and on")
	io.WriteString(inW, "and a short one\r")
	io.WriteString(inW, "\x03")
	waitShown(t, out, "short\n> ")
	io.WriteString(inW, "\x03")
	chatEnds(t, done, "Ctrl-C at an empty prompt")
	if !regexp.MustCompile(`^bxctl chat: [^\n]*\n[^\n]*\n> never sent\r\n\^C \(dropped; Ctrl-C at an empty prompt ends the chat\)\n> tell me a long story\r\nsession s-1\n(on and on )+\n\(reply stopped\)\n> and a short one\r\nshort\n> \r\n$`).MatchString(out.String()) {
		t.Errorf("output:\n%q", out.String())
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
	one := "bxctl: cannot reach loopd at " + sock + "; " + runbook.Link(runbook.DaemonNotRunning) + "\n" +
		"bxctl: hint: nothing listens on that socket: start loopd (boxmaker up --home DIR, or loopd serve --config PATH)\n" +
		"bxctl: hint: pgrep -a -x loopd shows whether one runs, and its --config which home it serves\n"
	if errOut.String() != one+one || out.String() != "" {
		t.Errorf("stdout %q, stderr %q, want stderr %q twice", out.String(), errOut.String(), one)
	}
}

// TestChatShowsWhatItWaitsFor: on a terminal, a status line while the
// model has not begun, while a tool runs and while its approval is
// awaited, each with the time waited, taken off before the next line;
// the runner's note on a result longer than the chat shows; and the
// turn's usage at its end, with loopd's word on a lost cache.
func TestChatShowsWhatItWaitsFor(t *testing.T) {
	long := strings.Repeat("x", 5000) + "\n[boxmaker: stdout truncated: 90000 bytes, the first 5000 shown]\n\n[boxmaker: the command was killed after 2000 ms]"
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		time.Sleep(1300 * time.Millisecond)
		st.Send(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c1", Tool: "run", Arguments: json.RawMessage(`{"command":["sleep","3"],"paths":["/p"]}`)})
		time.Sleep(700 * time.Millisecond)
		st.Send(loopwire.Event{Event: loopwire.EventAsked, CallID: "c1", Approval: "k3f9"})
		time.Sleep(700 * time.Millisecond)
		st.Send(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c1", Outcome: "approved", Text: long,
			Notes: []string{"[boxmaker: stdout truncated: 90000 bytes, the first 5000 shown]", "[boxmaker: the command was killed after 2000 ms]"}})
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "Done."})
		st.Send(loopwire.Event{Event: loopwire.EventUsage, Usage: &loopwire.Usage{Requests: 2, PromptTokens: 300, CachedTokens: 900, OutputTokens: 40, Context: 1240, NCtx: 4096,
			CacheLost: "cache loss: the server took 0 tokens from its cache; the previous request's prompt had 900"}})
		return loopwire.TurnResult{Session: "s-1", Reply: "Done."}, nil
	})
	ch, out, _ := newEditorChatter(f.sock, strings.NewReader("go\r/quit\r"))
	ch.status, ch.width = true, func() int { return 80 }
	if err := ch.run(context.Background(), nil, nil); err != nil {
		t.Fatal(err)
	}
	testsupport.ContainsAll(t, "output", out.String(),
		"session s-1\n\r\x1b[K  ... waiting for the model (0s)\r\x1b[K  ... waiting for the model (1s)\r\x1b[K  [tool c1 run] ",
		"\r\x1b[K  ... waiting for tool run sleep 3 (0s)",
		"\r\x1b[K  ... waiting for approval k3f9 ('bxctl approve k3f9' in another terminal) (0s)",
		"\n    [boxmaker: stdout truncated: 90000 bytes, the first 5000 shown]\n    [boxmaker: the command was killed after 2000 ms]\n",
		"Done.\n  [turn] 2 model requests: tokens 300 in, 40 out; cache reused 900 of 1200 prompt tokens (75%); context 1240 of 4096 tokens (30%)\n"+
			"  [turn] cache loss: the server took 0 tokens from its cache; the previous request's prompt had 900\n")
	// Off a terminal: no status line, the usage all the same.
	f2 := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-2"})
		time.Sleep(400 * time.Millisecond)
		st.Send(loopwire.Event{Event: loopwire.EventText, Text: "ok"})
		st.Send(loopwire.Event{Event: loopwire.EventUsage, Usage: &loopwire.Usage{Requests: 1, PromptTokens: 10, OutputTokens: 1, Context: 11}})
		return loopwire.TurnResult{Session: "s-2", Reply: "ok"}, nil
	})
	ch2, out2, _ := newChatter(f2.sock, false)
	if err := ch2.run(context.Background(), strings.NewReader("hi\n"), nil); err != nil {
		t.Fatal(err)
	}
	if want := "session s-2\nok\n  [turn] tokens 10 in, 1 out; cache reused 0 of 10 prompt tokens (0%); context 11 tokens\n"; out2.String() != want {
		t.Errorf("on a pipe: %q, want %q", out2.String(), want)
	}
}

// A turn stopped after a tool round shows what its model requests took
// before the stop (the sums loopd sent before the next request); the
// usage of a turn that ends is shown as before.
func TestAStoppedTurnShowsItsUsageSoFar(t *testing.T) {
	streaming := make(chan struct{})
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		st.Send(loopwire.Event{Event: loopwire.EventToolCall, CallID: "c1", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/p/a"}`)})
		st.Send(loopwire.Event{Event: loopwire.EventToolResult, CallID: "c1", Outcome: "allowed", Text: "a"})
		st.Send(loopwire.Event{Event: loopwire.EventUsage, Usage: &loopwire.Usage{Requests: 1, PromptTokens: 10, OutputTokens: 2, Context: 12, NCtx: 100}})
		close(streaming)
		for st.Send(loopwire.Event{Event: loopwire.EventText, Text: "on and on "}) == nil {
			time.Sleep(5 * time.Millisecond)
		}
		return nil, context.Canceled
	})
	ch, out, _ := newChatter(f.sock, true)
	inR, inW := io.Pipe()
	interrupts := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- ch.run(context.Background(), inR, interrupts) }()
	io.WriteString(inW, "read a\n")
	<-streaming
	waitShown(t, out, "on and on")
	interrupts <- os.Interrupt
	waitShown(t, out, "(reply stopped)\n")
	inW.Close()
	chatEnds(t, done, "the end of the input")
	want := "(reply stopped)\n  [turn] stopped after 1 model request: tokens 10 in, 2 out; cache reused 0 of 10 prompt tokens (0%); context 12 of 100 tokens (12%)\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output:\n%s\nwant it to hold %q", out.String(), want)
	}
}

// A turn that fails after a model request ended shows the usage loopd
// sent for it (its sums until the failure), then the error.
func TestAFailedTurnShowsItsUsage(t *testing.T) {
	f := serveLoop(t, func(n int, req loopwire.TurnRequest, st *daemon.Stream) (any, error) {
		st.Send(loopwire.Event{Event: loopwire.EventSession, Session: "s-1"})
		st.Send(loopwire.Event{Event: loopwire.EventUsage, Usage: &loopwire.Usage{Requests: 1, PromptTokens: 10, OutputTokens: 2, Context: 12}})
		st.Send(loopwire.Event{Event: loopwire.EventUsage, Usage: &loopwire.Usage{Requests: 1, PromptTokens: 10, OutputTokens: 2, Context: 12}})
		return nil, errors.New("the model server failed: HTTP 503")
	})
	ch, out, errOut := newChatter(f.sock, false)
	if err := ch.run(context.Background(), strings.NewReader("hi\n"), nil); err == nil {
		t.Error("on a pipe, a failed turn makes the chat fail at its end")
	}
	if want := "session s-1\n  [turn] tokens 10 in, 2 out; cache reused 0 of 10 prompt tokens (0%); context 12 tokens\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if !strings.Contains(errOut.String(), "the model server failed: HTTP 503") {
		t.Errorf("stderr %q", errOut.String())
	}
}
