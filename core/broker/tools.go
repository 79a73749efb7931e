package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"boxmaker/core/approval"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/core/yaag/program"
)

// arguments is what brokerd takes from a call's arguments: only the
// fields its tool has (core/approval, which shows them to the owner the
// same way). Anything else the model writes (a grant name, a taint) is
// dropped here and never reaches a decision or a tool.
type arguments = approval.Arguments

// parseArguments reads a call's arguments for its tool and returns its
// targets (the paths to decide, or the URL) and, for memory and recall,
// the arguments to forward. A problem is a reason to deny, in words for
// the model.
func parseArguments(tool string, raw json.RawMessage) (a arguments, targets []string, forward any, problem string) {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, nil, nil, fmt.Sprintf("the arguments of %s are not valid: %v", tool, jsonProblem(err))
	}
	// A key twice, or a field name in another case, would let the owner
	// be shown one value while brokerd used another.
	if err := approval.CheckKeys(raw); err != nil {
		return a, nil, nil, fmt.Sprintf("the arguments of %s are not valid: %v", tool, err)
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
	case policy.YaagRun:
		return yaagArguments(a)
	case policy.YaagStatus, policy.YaagStop:
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
	switch r.Tool {
	case "read_file":
		return r.Content
	case "write_file":
		return fmt.Sprintf("wrote %d bytes to %s", r.Size, r.Path)
	case "list_dir":
		var b strings.Builder
		for _, e := range r.Entries {
			switch e.Type {
			case "dir":
				fmt.Fprintf(&b, "%s/\n", e.Name)
			case "file":
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
	case "run":
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
		if err := program.CheckInline([]byte(*a.Script)); err != nil {
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
