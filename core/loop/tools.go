package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/runbook"
)

// ToolDefinitions is the tools array a new session's baseline takes: the
// tools brokerd decides (docs/tool-socket.md, and docs/protocols.md for
// every socket). It is written compactly, once, and replayed from the baseline
// byte for byte afterwards.
var ToolDefinitions = mustCompact(`[
{"type":"function","function":{"name":"read_file","description":"Read a text file.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"absolute path"}},"required":["path"]}}},
{"type":"function","function":{"name":"write_file","description":"Write a text file, replacing it.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"absolute path"},"content":{"type":"string"}},"required":["path","content"]}}},
{"type":"function","function":{"name":"list_dir","description":"List a directory.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"absolute path"}},"required":["path"]}}},
{"type":"function","function":{"name":"run","description":"Run a command in a container that sees only the paths given.","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}},"paths":{"type":"array","items":{"type":"string"}}},"required":["command"]}}},
{"type":"function","function":{"name":"http_fetch","description":"Fetch a URL.","parameters":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}}},
{"type":"function","function":{"name":"memory","description":"Change your memory (memory) or what you know of the user (user).","parameters":{"type":"object","properties":{"actions":{"type":"array","items":{"type":"object","properties":{"action":{"type":"string","enum":["add","replace","remove","note"]},"file":{"type":"string","enum":["memory","user"]},"text":{"type":"string"},"old":{"type":"string"}},"required":["action"]}}},"required":["actions"]}}},
{"type":"function","function":{"name":"recall","description":"Search past sessions and notes.","parameters":{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"]}}}
]`)

func mustCompact(s string) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Outcomes loopd itself gives a call, besides brokerd's.
const (
	OutcomeUnavailable = "unavailable" // brokerd could not be reached or was silent
	OutcomeFailed      = brokerwire.OutcomeFailed
	OutcomeLimit       = "limit" // the turn's tool rounds were used up
)

// BrokerUnavailableText is what the model is told when brokerd cannot be
// reached or does not answer in time.
const BrokerUnavailableText = "the tool broker is unavailable"

// NoBrokerText is what the model is told when no broker is configured.
const NoBrokerText = "no tool broker is configured"

// Broker calls brokerd's tool socket, one connection per call.
type Broker struct {
	Socket string        // empty: no broker is configured
	Silent time.Duration // how long brokerd may stay silent before it counts as unavailable
}

// Call sends one tool call. onAsked is told the approval id when brokerd
// holds the call for an approval; from then on the wait is brokerd's (it
// answers "expired" itself), not timeout_ms. The error is non-nil when
// brokerd was unavailable, or refused the call with a refusal of its own:
// either way the answer is the outcome the model is told, and the error,
// its entry kept (runbook.EntryOf), is the operator's line.
func (b Broker) Call(ctx context.Context, req brokerwire.ToolCall, onAsked func(approval string)) (brokerwire.Answer, error) {
	if b.Socket == "" {
		return brokerwire.Answer{Outcome: OutcomeUnavailable, Text: NoBrokerText}, runbook.Refuse(runbook.BrokerUnavailable, "%s", NoBrokerText)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	silent := errors.New("silent")
	timer := time.AfterFunc(b.Silent, func() { cancel(silent) })
	defer timer.Stop()
	var out brokerwire.Answer
	err := daemon.Call(ctx, b.Socket, brokerwire.KindToolCall, req, &out, func(ev json.RawMessage) error {
		var e brokerwire.Asked
		if json.Unmarshal(ev, &e) == nil && e.Event == brokerwire.EventAsked {
			timer.Stop()
			if onAsked != nil {
				onAsked(e.Approval)
			}
		}
		return nil
	})
	var re *daemon.RemoteError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &re):
		ans := brokerwire.Answer{Outcome: OutcomeFailed, Text: failedText(re)}
		if _, ok := runbook.EntryOf(err); !ok {
			return ans, nil // an error that names no entry: the model's words are all there is
		}
		return ans, fmt.Errorf("brokerd refused tool call %s: %w", req.CallID, err)
	case errors.Is(context.Cause(ctx), silent):
		return brokerwire.Answer{Outcome: OutcomeUnavailable, Text: BrokerUnavailableText},
			runbook.Refuse(runbook.BrokerUnavailable, "the tool broker at %s did not answer within %d ms", b.Socket, b.Silent.Milliseconds())
	case ctx.Err() != nil && context.Cause(ctx) != silent:
		return brokerwire.Answer{}, context.Cause(ctx)
	default:
		return brokerwire.Answer{Outcome: OutcomeUnavailable, Text: BrokerUnavailableText},
			runbook.Refuse(runbook.BrokerUnavailable, "cannot reach the tool broker at %s: %v", b.Socket, err)
	}
}

// StartSession tells brokerd that session begins at taint (its memory
// block's class), before its first call; brokerd records it (a
// session_start record, then the state file). An error means it is not
// recorded.
func (b Broker) StartSession(ctx context.Context, session, taint string) error {
	return b.StartSessionFrom(ctx, session, taint, "")
}

// StartSessionFrom is StartSession for a fork: the session starts at the
// join of taint and the state of the session from.
func (b Broker) StartSessionFrom(ctx context.Context, session, taint, from string) error {
	return b.StartSessionIn(ctx, brokerwire.SessionStart{Session: session, Taint: taint, From: from})
}

// StartSessionIn is session.start as body says it: a yaag Agent's session
// names its Run's taint domain (the key brokerd handed the Run), and
// starts in it.
func (b Broker) StartSessionIn(ctx context.Context, body brokerwire.SessionStart) error {
	if b.Socket == "" {
		return runbook.Refuse(runbook.BrokerUnavailable, "%s", NoBrokerText)
	}
	silent := b.Silent
	if silent <= 0 {
		silent = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, silent)
	defer cancel()
	err := daemon.Call(ctx, b.Socket, brokerwire.KindSessionStart, body, nil, nil)
	var re *daemon.RemoteError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		return fmt.Errorf("brokerd refused: %w", err) // its refusal, entry kept
	case ctx.Err() != nil:
		return runbook.Refuse(runbook.BrokerUnavailable, "the tool broker at %s did not answer within %d ms", b.Socket, silent.Milliseconds())
	}
	return runbook.Refuse(runbook.BrokerUnavailable, "cannot reach the tool broker at %s: %v", b.Socket, err)
}

// failedText is what the model is told of an error brokerd answered with:
// its public text (the refusal made again), not too long, ending with the
// link of brokerd's entry, as brokerd's other answers do; an error that
// named no entry ends with no link.
func failedText(re *daemon.RemoteError) string {
	text := re.PublicText()
	if len(text) > 300 {
		text = strings.ToValidUTF8(text[:300], "") + "..."
	}
	text = "the tool call failed: " + text
	if r := re.Refusal(); r != nil {
		return runbook.Refuse(r.Entry, "%s", text).Error()
	}
	return text
}
