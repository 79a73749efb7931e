package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runCallServer is the test server of the calls' edge cases: echo
// answers its text; sleep never answers, and says on stderr when it is
// cancelled; crash ends the process mid-call; flood writes one line
// longer than the SDK's frame limit; grow adds a tool, so the server
// sends notifications/tools/list_changed.
func runCallServer() int {
	s := sdk.NewServer(&sdk.Implementation{Name: "boxmaker-test-calls", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a struct{ Text string }
			json.Unmarshal(r.Params.Arguments, &a)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + a.Text}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "fail", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such note"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "sleep", InputSchema: obj}, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		<-ctx.Done()
		fmt.Fprintln(os.Stderr, "sleep: cancelled")
		return nil, ctx.Err()
	})
	s.AddTool(&sdk.Tool{Name: "crash", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "crash: giving up")
		os.Exit(4)
		return nil, nil
	})
	s.AddTool(&sdk.Tool{Name: "flood", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		chunk := []byte(strings.Repeat("x", 1<<20))
		for i := 0; i < 20; i++ {
			if _, err := os.Stdout.Write(chunk); err != nil {
				break
			}
		}
		select {}
	})
	s.AddTool(&sdk.Tool{Name: "grow", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		s.AddTool(&sdk.Tool{Name: "grown", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "grew"}}}, nil
	})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func TestCallAnswersWithTheToolsText(t *testing.T) {
	s := connect(t, testServer(t, "calls"), Options{})
	res, err := s.Call(context.Background(), "echo", json.RawMessage(`{"text":"hello"}`))
	if err != nil || res.Text != "echo: hello" || res.IsError {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	res, err = s.Call(context.Background(), "fail", nil)
	if err != nil || res.Text != "no such note" || !res.IsError {
		t.Fatalf("fail: %+v, %v", res, err)
	}
	// The session goes on after a tool's own error.
	if res, err := s.Call(context.Background(), "echo", json.RawMessage(`{"text":"again"}`)); err != nil || res.Text != "echo: again" {
		t.Fatalf("echo after fail: %+v, %v", res, err)
	}
}

func TestACallThatHangsTimesOutAndTheServerIsToldToCancel(t *testing.T) {
	s := connect(t, testServer(t, "calls"), Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := s.Call(ctx, "sleep", nil)
	var ce *CallError
	if !errors.As(err, &ce) || ce.Why != WhyTimeout {
		t.Fatalf("sleep: %v, want a timeout", err)
	}
	// notifications/cancelled reached the server: its handler's context
	// ended.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.Stderr(), "sleep: cancelled") {
		if time.Now().After(deadline) {
			t.Fatalf("the server was not told: stderr %q", s.Stderr())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A cut turn is cancelled, not timed out.
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	if _, err := s.Call(ctx, "sleep", nil); !errors.As(err, &ce) || ce.Why != WhyCancelled {
		t.Fatalf("sleep cancelled: %v", err)
	}
	if res, err := s.Call(context.Background(), "echo", json.RawMessage(`{"text":"still here"}`)); err != nil || res.Text != "echo: still here" {
		t.Fatalf("echo after: %+v, %v", res, err)
	}
}

func TestAServerThatEndsMidCallFailsTheCall(t *testing.T) {
	s := connect(t, testServer(t, "calls"), Options{})
	_, err := s.Call(context.Background(), "crash", nil)
	var ce *CallError
	if !errors.As(err, &ce) || ce.Why != WhyEnded {
		t.Fatalf("crash: %v, want ended", err)
	}
}

func TestAServerThatFloodsItsOutputEndsTheConnection(t *testing.T) {
	s := connect(t, testServer(t, "calls"), Options{TerminateAfter: 200 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := s.Call(ctx, "flood", nil)
	var ce *CallError
	if !errors.As(err, &ce) || (ce.Why != WhyEnded && ce.Why != WhyProtocol) {
		t.Fatalf("flood: %v, want the connection ended", err)
	}
}

func TestAListChangedNotificationIsTold(t *testing.T) {
	var changed atomic.Int32
	s := connect(t, testServer(t, "calls"), Options{ToolsChanged: func() { changed.Add(1) }})
	before := listTools(t, s)
	if _, err := s.Call(context.Background(), "grow", nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for changed.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no notifications/tools/list_changed was told")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if after := listTools(t, s); after.Hash == before.Hash {
		t.Fatal("the list did not change")
	}
}
