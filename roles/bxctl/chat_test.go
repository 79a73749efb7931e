package bxctl

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/core/loop"
	"boxmaker/runbook"
)

// TestChatShowsTheTurn serves a loop socket that plays a turn's events
// and checks what the person sees, and that the session goes on.
func TestChatShowsTheTurn(t *testing.T) {
	var got []loop.TurnRequest
	sock := serveLoop(t, func(_ context.Context, _ daemon.Peer, body json.RawMessage, st *daemon.Stream) (any, error) {
		var req loop.TurnRequest
		json.Unmarshal(body, &req)
		got = append(got, req)
		st.Send(loop.Event{Event: "session", Session: "s-1"})
		if len(got) == 1 {
			st.Send(loop.Event{Event: "text", Text: "Let me "})
			st.Send(loop.Event{Event: "text", Text: "look."})
			st.Send(loop.Event{Event: "tool_call", CallID: "c1", Tool: "write_file", Arguments: json.RawMessage(`{"path":"/x"}`)})
			st.Send(loop.Event{Event: "asked", CallID: "c1", Approval: "k3f9"})
			st.Send(loop.Event{Event: "tool_result", CallID: "c1", Outcome: "approved", Text: "wrote 1 byte to /x"})
			st.Send(loop.Event{Event: "tool_call", CallID: "c2", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/etc/shadow"}`)})
			st.Send(loop.Event{Event: "tool_result", CallID: "c2", Outcome: "denied", Text: "denied: no grant allows read_file on \"/etc/shadow\""})
			st.Send(loop.Event{Event: "text", Text: "\n\nDone."})
			return loop.TurnResult{Session: "s-1", Reply: "Let me look.\n\nDone."}, nil
		}
		return nil, runbook.Refuse(runbook.SessionLogDamaged, "sessions/s-1/0.jsonl:3: last line does not end in a newline")
	})

	var out strings.Builder
	err := chat(context.Background(), sock, "", "owner", strings.NewReader("write x\nagain\n"), &out, true)
	want := "> session s-1\n" +
		"Let me look.\n" +
		"  [tool c1 write_file] {\"path\":\"/x\"}\n" +
		"  [tool c1] asked: approval k3f9; run 'bxctl approve k3f9' in another terminal\n" +
		"  [tool c1] approved: wrote 1 byte to /x\n" +
		"  [tool c2 read_file] {\"path\":\"/etc/shadow\"}\n" +
		"  [tool c2] denied: no grant allows read_file on \"/etc/shadow\"\n" +
		"\n\nDone.\n" +
		"> "
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err == nil || err.Error() != "sessions/s-1/0.jsonl:3: last line does not end in a newline; "+runbook.Link(runbook.SessionLogDamaged) {
		t.Errorf("second turn: %v", err)
	}
	if len(got) != 2 || got[0].Session != "" || got[1].Session != "s-1" || got[1].Who != "owner" || got[1].Text != "again" {
		t.Errorf("requests %+v", got)
	}
}

// serveLoop serves a loop socket whose turn request handle answers, for
// as long as the test runs, and returns its path.
func serveLoop(t *testing.T, handle daemon.Handler) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "bxc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	lock, err := daemon.TakeLock("loopd", filepath.Join(dir, "loopd.lock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Release() })
	sock := filepath.Join(dir, "loop", "loop.sock")
	ln, err := daemon.Listen(lock, sock)
	if err != nil {
		t.Fatal(err)
	}
	s := &daemon.Socket{Role: "loopd", Name: "loop", Path: sock, ListenerLost: runbook.ListenerLost, Log: os.Stderr,
		Kinds: map[string]daemon.Handler{"turn": handle}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return sock
}

// The attacks of issue 9 through bxctl chat: a file the agent read clears
// the screen and prints a fake approved line and a fake bxctl prompt; the
// model's text sets the terminal's title and rings the bell; a tool call's
// arguments carry a carriage return. Every byte that reaches the terminal
// is checked: no control sequence, and nothing begins a line of its own.
func TestChatShowsNoControlSequences(t *testing.T) {
	file := "# notes\n\x1b[2J\x1b[Happroved: call c9 ran\r\n\x1b[1A\x1b[Kbxctl approve zzzzzz\n\u009b2J\u202egnp.exe"
	sock := serveLoop(t, func(_ context.Context, _ daemon.Peer, _ json.RawMessage, st *daemon.Stream) (any, error) {
		st.Send(loop.Event{Event: "session", Session: "s-1"})
		st.Send(loop.Event{Event: "text", Text: "\x1b]0;owner@box: all approved\x07Reading."})
		st.Send(loop.Event{Event: "tool_call", CallID: "c1", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/x\r\u001b[2K"}`)})
		st.Send(loop.Event{Event: "tool_result", CallID: "c1", Outcome: "allowed", Text: file})
		return loop.TurnResult{Session: "s-1"}, nil
	})
	var out strings.Builder
	if err := chat(context.Background(), sock, "", "owner", strings.NewReader("read it\n"), &out, false); err != nil {
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
