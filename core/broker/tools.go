package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"boxmaker/core/approval"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// arguments is what brokerd takes from a call's arguments: only the
// fields its tool has (core/approval, which shows them to the owner the
// same way). Anything else the model writes (a grant name, a taint) is
// dropped here and never reaches a decision or a tool.
type arguments = approval.Arguments

// The limits of a call's arguments (docs/tool-socket.md). A call over one
// is denied with a reason naming it, and its decision record keeps at most
// the limit of its tool name and targets: the model cannot fill the audit
// log, or brokerd's memory, through its arguments. The request line as a
// whole is bounded by the socket (core/daemon, 16 MiB).
const (
	MaxToolName     = 64
	MaxPath         = 4096 // a path, run's each, yaag's file and dir
	MaxPaths        = 32   // run's paths
	MaxCommandWords = 1024
	MaxCommand      = 16 << 10 // run's words together
	MaxContent      = 8 << 20  // write_file
	MaxURL          = 4096
	MaxQuery        = 4096
	MaxActions      = 64
	MaxActionText   = 64 << 10 // a memory action's text, and its old text
	MaxScript       = 1 << 20  // yaag_run's script and input
	MaxName         = 256      // yaag's profile and id
)

// overLimit says which argument of a call is over its limit, and by how
// much, in words for the model; "" when none is.
func overLimit(tool string, a arguments) string {
	over := func(what string, n, limit int, unit string) string {
		if n <= limit {
			return ""
		}
		return fmt.Sprintf("%s is %d %s, over the limit of %d; %s", what, n, unit, limit, runbook.Link(runbook.RequestTooLarge))
	}
	checks := []string{
		over("the tool name", len(tool), MaxToolName, "bytes"),
		over("path", len(a.Path), MaxPath, "bytes"),
		over("paths", len(a.Paths), MaxPaths, "paths"),
		over("command", len(a.Command), MaxCommandWords, "words"),
		over("url", len(a.URL), MaxURL, "bytes"),
		over("query", len(a.Query), MaxQuery, "bytes"),
		over("actions", len(a.Actions), MaxActions, "actions"),
		over("file", len(a.File), MaxPath, "bytes"),
		over("dir", len(a.Dir), MaxPath, "bytes"),
		over("input", len(a.Input), MaxScript, "bytes"),
		over("profile", len(a.Profile), MaxName, "bytes"),
		over("id", len(a.ID), MaxName, "bytes"),
	}
	if a.Content != nil {
		checks = append(checks, over("content", len(*a.Content), MaxContent, "bytes"))
	}
	if a.Script != nil {
		checks = append(checks, over("script", len(*a.Script), MaxScript, "bytes"))
	}
	for i, p := range a.Paths {
		checks = append(checks, over(fmt.Sprintf("paths[%d]", i), len(p), MaxPath, "bytes"))
	}
	words := 0
	for _, w := range a.Command {
		words += len(w)
	}
	checks = append(checks, over("command", words, MaxCommand, "bytes"))
	for i, act := range a.Actions {
		checks = append(checks, over(fmt.Sprintf("actions[%d].text", i), len(act.Text), MaxActionText, "bytes"),
			over(fmt.Sprintf("actions[%d].old", i), len(act.Old), MaxActionText, "bytes"))
	}
	for _, c := range checks {
		if c != "" {
			return c
		}
	}
	return ""
}

// cutField is at most limit bytes of s for a record, cut on a character
// boundary and marked with the whole length when it was cut.
func cutField(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[%d bytes]", s[:cut], len(s))
}

// recordTargets are a call's targets as a decision record keeps them: at
// most MaxPaths of them, each at most MaxPath bytes.
func recordTargets(targets []string) string {
	var kept []string
	for i, t := range targets {
		if i == MaxPaths {
			kept = append(kept, fmt.Sprintf("…[%d targets]", len(targets)))
			break
		}
		kept = append(kept, cutField(t, MaxPath))
	}
	return strings.Join(kept, " ")
}

// parseArguments reads a call's arguments for its tool and returns its
// targets (the paths to decide, or the URL) and, for memory and recall,
// the arguments to forward. A problem is a reason to deny, in words for
// the model.
func parseArguments(tool string, raw json.RawMessage) (a arguments, targets []string, forward any, problem string) {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if isMCP(tool) {
		// An MCP tool's arguments are the server's to read, passed on
		// as they are.
		if why := overLimit(tool, arguments{}); why != "" {
			return a, nil, nil, why
		}
		return a, []string{""}, nil, mcpArguments(tool, raw)
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, nil, nil, fmt.Sprintf("the arguments of %s are not valid: %v", tool, jsonProblem(err))
	}
	// A key twice, or a field name in another case, would let the owner
	// be shown one value while brokerd used another.
	if err := approval.CheckKeys(raw); err != nil {
		return a, nil, nil, fmt.Sprintf("the arguments of %s are not valid: %v", tool, err)
	}
	if why := overLimit(tool, a); why != "" {
		return a, nil, nil, why
	}
	switch policy.Tool(tool) {
	case policy.ReadFile, policy.ListDir:
		return a, []string{a.Path}, nil, ""
	case policy.WriteFile:
		if a.Content == nil {
			return a, nil, nil, "write_file needs content"
		}
		return a, []string{a.Path}, nil, ""
	case policy.Run:
		switch {
		case len(a.Command) == 0:
			return a, nil, nil, "run needs a command (a list of words)"
		case len(a.Paths) == 0:
			return a, nil, nil, "run needs paths: the directories the command works in (the first is its working directory)"
		}
		return a, a.Paths, nil, ""
	case policy.HTTPFetch:
		return a, []string{a.URL}, nil, ""
	case policy.Memory:
		if a.Actions == nil {
			return a, nil, nil, "memory needs actions"
		}
		return a, []string{""}, map[string]any{"actions": a.Actions}, ""
	case policy.YaagSetupWorkspace:
		if a.Dir == "" {
			return a, nil, nil, "yaag_setup_workspace needs dir: the absolute directory to write .yaag/types/ in"
		}
		return a, []string{a.Dir}, nil, ""
	case policy.YaagRun:
		return yaagArguments(a)
	case policy.YaagStatus:
		return a, []string{""}, nil, "" // without an id: the Runs, orphans among them
	case policy.YaagStop, policy.YaagPause:
		if a.ID == "" {
			return a, nil, nil, tool + " needs id: the Run's id that yaag_run answered with"
		}
		return a, []string{""}, nil, ""
	case policy.Recall:
		f := map[string]any{"query": a.Query}
		if a.Limit != 0 {
			f["limit"] = a.Limit
		}
		return a, []string{""}, f, ""
	}
	// An unknown tool: the policy denies it with its own words.
	return a, []string{""}, nil, ""
}

func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type.String()), te.Value)
	}
	return err.Error()
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case goType == "string", goType == "*string":
		return "a string"
	case goType == "int":
		return "a number"
	}
	return goType
}

// shellQuote joins words into a command line sh reads back as the same
// words: run's command is a list, the executor runs a line.
func shellQuote(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// resultText is what the model is given for a tool that ran.
func resultText(r runner.Result) string {
	if r.Error != "" {
		return "error: " + r.Error
	}
	switch policy.Tool(r.Tool) {
	case policy.ReadFile:
		return r.Content
	case policy.WriteFile:
		return fmt.Sprintf("wrote %d bytes to %s", r.Size, r.Path)
	case policy.YaagSetupWorkspace:
		return fmt.Sprintf("%s (in %s)", r.Content, r.Path) // the executor's own line
	case policy.ListDir:
		var b strings.Builder
		for _, e := range r.Entries {
			switch e.Type {
			case runner.EntryDir:
				fmt.Fprintf(&b, "%s/\n", e.Name)
			case runner.EntryFile:
				fmt.Fprintf(&b, "%s (%d bytes)\n", e.Name, e.Size)
			default:
				fmt.Fprintf(&b, "%s (%s)\n", e.Name, e.Type)
			}
		}
		if len(r.Entries) == 0 {
			b.WriteString("(empty)\n")
		}
		if r.Note != "" {
			b.WriteString(r.Note + "\n")
		}
		return b.String()
	case policy.Run:
		var b strings.Builder
		fmt.Fprintf(&b, "exit code %d\n", r.ExitCode)
		if r.Stdout != "" {
			fmt.Fprintf(&b, "stdout:\n%s\n", strings.TrimSuffix(r.Stdout, "\n"))
		}
		if r.Stderr != "" {
			fmt.Fprintf(&b, "stderr:\n%s\n", strings.TrimSuffix(r.Stderr, "\n"))
		}
		return b.String()
	}
	out, _ := json.Marshal(r)
	return string(out)
}

// yaagArguments checks a yaag_run's arguments: a file (absolute) or an
// inline script with the directory it runs in. The target decided is the
// program's directory: the Run reads no file outside it.
func yaagArguments(a arguments) (arguments, []string, any, string) {
	switch {
	case a.Script != nil && a.File != "":
		return a, nil, nil, "yaag_run takes a file or a script, not both"
	case a.Script != nil:
		if err := yaagwire.CheckInline([]byte(*a.Script)); err != nil {
			return a, nil, nil, err.Error()
		}
		if a.Dir == "" {
			return a, nil, nil, "yaag_run with a script needs dir: the absolute directory it runs in"
		}
		return a, []string{a.Dir}, nil, ""
	case a.File != "":
		if !filepath.IsAbs(a.File) {
			return a, nil, nil, "yaag_run needs an absolute file"
		}
		return a, []string{filepath.Dir(filepath.Clean(a.File))}, nil, ""
	}
	return a, nil, nil, "yaag_run needs a file (an absolute path) or a script"
}
