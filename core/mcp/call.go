package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is what a tool call answered, as text for the model: each text
// content in order, other contents named by their kind and size (an
// image is not passed on), and the structured content as JSON when
// there is no text. IsError is the server saying the tool failed: its
// text is still the answer.
type Result struct {
	Text    string
	IsError bool
}

// CallError says why a call got no answer. Why is one of the Why
// constants.
type CallError struct {
	Why    string
	Stderr string // the end of the server's standard error
	Err    error
}

// Why a call got no answer.
const (
	WhyTimeout   = "timeout"   // no answer within the call's time
	WhyCancelled = "cancelled" // the caller stopped waiting (the model's turn was cut)
	WhyEnded     = "ended"     // the server's process or its stream ended (a message over the frame limit ends it too)
	WhyProtocol  = "protocol"  // the server answered with a JSON-RPC error; the connection stands
)

func (e *CallError) Error() string {
	var b strings.Builder
	switch e.Why {
	case WhyTimeout:
		b.WriteString("the MCP server gave no answer in time")
	case WhyCancelled:
		b.WriteString("the call was cancelled")
	case WhyEnded:
		b.WriteString("the MCP server ended during the call")
	default:
		b.WriteString("the MCP server answered with an error")
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if s := strings.TrimSpace(e.Stderr); s != "" && e.Why == WhyEnded {
		fmt.Fprintf(&b, "; its standard error ends: %q", lastLines(s, 5))
	}
	return b.String()
}

func (e *CallError) Unwrap() error { return e.Err }

// cancelGrace is how long a call whose context ended may still hold the
// server before its process is killed.
const cancelGrace = 5 * time.Second

// Call calls the tool name with args (a JSON object, passed on as the
// model wrote it). When ctx ends first the SDK sends the server
// notifications/cancelled for the request and the call is a CallError
// (timeout when ctx's deadline passed, cancelled otherwise).
func (s *Session) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	// A server that stops reading its input holds the call's write (its
	// arguments, the notifications/cancelled after ctx ends) past ctx:
	// CallTool would not return. Once ctx has ended and the SDK has had
	// cancelGrace to give up, the process is killed: the write fails, and
	// the call with it (as ended, or as ctx says).
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-finished:
			return
		case <-ctx.Done():
		}
		stop := s.killAfter(cancelGrace)
		<-finished
		stop()
	}()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	switch {
	case err == nil:
		return Result{Text: contentText(res), IsError: res.IsError}, nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return Result{}, &CallError{Why: WhyTimeout}
	case ctx.Err() != nil:
		return Result{}, &CallError{Why: WhyCancelled}
	}
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		// The server's own error answer: the connection stands.
		return Result{}, &CallError{Why: WhyProtocol, Err: err}
	}
	// Anything else broke the connection: the process or its stream
	// ended (io.EOF, sdk.ErrConnectionClosed), or it wrote what is not
	// the protocol (a frame over the SDK's limit among them).
	return Result{}, &CallError{Why: WhyEnded, Stderr: s.stderr.String(), Err: err}
}

// contentText renders a result's contents as text.
func contentText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[an image, %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio, %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[a resource link: %s]", c.URI))
		case *sdk.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[an embedded resource: %s, not shown]", c.Resource.URI))
			}
		default:
			parts = append(parts, "[a content of another kind, not shown]")
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}
