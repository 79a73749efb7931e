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
	dir, err := os.MkdirTemp("/tmp", "bxc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	lock, err := daemon.TakeLock("loopd", filepath.Join(dir, "loopd.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	sock := filepath.Join(dir, "loop", "loop.sock")
	ln, err := daemon.Listen(lock, sock)
	if err != nil {
		t.Fatal(err)
	}
	var got []loop.TurnRequest
	s := &daemon.Socket{Role: "loopd", Name: "loop", Path: sock, ListenerLost: runbook.ListenerLost, Log: os.Stderr,
		Kinds: map[string]daemon.Handler{"turn": func(_ context.Context, _ daemon.Peer, body json.RawMessage, st *daemon.Stream) (any, error) {
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
		}},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, ln); close(done) }()
	defer func() { cancel(); <-done }()

	var out strings.Builder
	err = chat(context.Background(), sock, "", "owner", strings.NewReader("write x\nagain\n"), &out, true)
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
