package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/runbook"
)

// execute runs an allowed call: the file tools and run in a container,
// memory and recall through memoryd. found is what memoryd says of a
// recall's hits: their sources' highest taint, and whether one came from
// tainted memory (Untrusted). mounted is what the runner says it gave the
// container.
func (b *Broker) execute(ctx context.Context, c brokerwire.ToolCall, a arguments, v verdict, forward any) (text string, notes []string, found policy.State, mounted []string, err error) {
	if isMCP(c.Tool) {
		text, notes, mounted, err := b.runMCP(ctx, c, v)
		return text, notes, policy.State{}, mounted, err
	}
	switch policy.Tool(c.Tool) {
	case policy.ReadFile, policy.ListDir, policy.WriteFile, policy.Run, policy.YaagSetupWorkspace:
		rc := runner.Call{ID: runID(c), Tool: c.Tool, Paths: v.targets, Masks: v.masks, AllowHardLinks: v.HardLinks}
		if a.Content != nil {
			rc.Content = []byte(*a.Content)
		}
		if c.Tool == string(policy.Run) {
			rc.Command = shellQuote(a.Command)
		}
		res, err := b.cfg.Runner.Run(ctx, rc)
		if err != nil {
			return "", nil, policy.State{}, nil, err
		}
		return resultText(res), res.Notes(), policy.State{}, res.Mounted, nil
	case policy.Memory, policy.Recall:
		text, found, err := b.forward(ctx, c, forward)
		return text, nil, found, nil, err
	case policy.YaagRun, policy.YaagStatus, policy.YaagStop, policy.YaagPause:
		text, found, err := b.yaagCall(ctx, c, a, v)
		return text, nil, found, nil, err
	case policy.HTTPFetch:
		// The decided, normalised URL: the proxy is given its host only.
		res, err := b.cfg.Runner.Run(ctx, runner.Call{ID: runID(c), Tool: c.Tool, URL: v.targets[0]})
		if err != nil {
			return "", nil, policy.State{}, nil, err
		}
		return runner.FetchText(res), res.Notes(), policy.State{}, nil, nil
	}
	return "", nil, policy.State{}, nil, fmt.Errorf("brokerd cannot run %q", c.Tool)
}

// forward sends a memory or recall call to memoryd and returns its text,
// and for recall the state its hits carry (their sources' highest taint,
// and untrusted when one is memory-tainted). A refusal from memoryd (a
// write its sanitizer refused) is the tool's answer; no answer at all is
// memoryd-unreachable. A recall answer that does not say its hits' taint,
// or says one brokerd does not know, is not given: the text might be more
// sensitive than the session may become.
func (b *Broker) forward(ctx context.Context, c brokerwire.ToolCall, args any) (string, policy.State, error) {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.MemoryTimeout)
	defer cancel()
	body := memorywire.ToolRequest{Session: c.Session, CallID: c.CallID}
	fields, _ := json.Marshal(args) // the tool's own fields, as parseArguments kept them
	if err := json.Unmarshal(fields, &body.Arguments); err != nil {
		return "", policy.State{}, fmt.Errorf("the %s arguments cannot be forwarded: %v", c.Tool, err)
	}
	kind := memorywire.KindMemoryCall
	if c.Tool == string(policy.Recall) {
		kind = memorywire.KindRecallCall
	}
	// Decoded twice: the fields' presence, then their values (a recall
	// answer that does not say its taint is not given).
	var raw json.RawMessage
	err := daemon.Call(ctx, b.cfg.MemorySocket, kind, body, &raw, nil)
	var re *daemon.RemoteError
	var given map[string]json.RawMessage
	var out memorywire.ToolAnswer
	switch {
	case errors.As(err, &re):
		return re.Text, policy.State{}, nil
	case err != nil:
		return "", policy.State{}, runbook.WithCause(runbook.MemorydUnreachable, MemoryUnavailableText, fmt.Errorf("%s: %v", b.cfg.MemorySocket, err))
	case json.Unmarshal(raw, &given) != nil, given["text"] == nil, json.Unmarshal(raw, &out) != nil:
		return "", policy.State{}, runbook.WithCause(runbook.MemorydUnreachable, MemoryUnavailableText, fmt.Errorf("%s: the answer is not a tool result", b.cfg.MemorySocket))
	}
	found := policy.State{Untrusted: out.Tainted}
	hasTaint := given["taint"] != nil
	if c.Tool == string(policy.Memory) && hasTaint {
		// The answer quotes identity entries (an ambiguous piece, a file
		// over its limit): the session reads them, so it rises to their
		// class as for recall.
		t, err := policy.ParseTaint(out.Taint)
		if err != nil {
			return "", policy.State{}, runbook.WithCause(runbook.MemorydUnreachable, MemoryUnavailableText, fmt.Errorf("%s: the memory answer's %v", b.cfg.MemorySocket, err))
		}
		found.Taint = t
	}
	if c.Tool == string(policy.Recall) {
		if !hasTaint {
			return "", policy.State{}, runbook.WithCause(runbook.MemorydUnreachable, MemoryUnavailableText, fmt.Errorf("%s: the recall answer does not say its hits' taint", b.cfg.MemorySocket))
		}
		t, err := policy.ParseTaint(out.Taint)
		if err != nil {
			return "", policy.State{}, runbook.WithCause(runbook.MemorydUnreachable, MemoryUnavailableText, fmt.Errorf("%s: the recall answer's %v", b.cfg.MemorySocket, err))
		}
		found.Taint = t
	}
	return out.Text, found, nil
}

// failureNote is a failure as the result record keeps it: a refusal's
// text with its cause (what the model is not told: the path that
// changed, what Podman said) and its entry.
func failureNote(err error) string {
	var r *runbook.Refusal
	if errors.As(err, &r) && r.Cause != nil {
		return r.Text + " (" + r.Cause.Error() + "); " + runbook.Link(r.Entry)
	}
	return err.Error()
}

// failureText prints what went wrong for the operator and returns what
// the model is given.
func (b *Broker) failureText(c brokerwire.ToolCall, err error) string {
	var r *runbook.Refusal
	if errors.As(err, &r) {
		cause := ""
		if said, ok := runner.PodmanSaid(err); ok {
			cause = " (podman said: " + strings.TrimSpace(said) + ")"
		} else if r.Cause != nil {
			cause = " (" + r.Cause.Error() + ")"
		}
		b.logf("call %s (%s): %s%s; %s", c.CallID, c.Tool, r.Text, cause, runbook.Link(r.Entry))
		return r.Error()
	}
	b.logf("call %s (%s) failed: %v", c.CallID, c.Tool, err)
	return "the tool failed: " + err.Error()
}
