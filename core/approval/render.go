package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"boxmaker/core/brokerwire"
	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
	"boxmaker/core/termsafe"
)

// summaryWidth bounds a summary line, in runes of what the model wrote.
const summaryWidth = 160

// maxProgramFiles is how many of a yaag_run's files Render lists when
// the text is limited (Options.ContentLimit not negative).
const maxProgramFiles = 40

// Summary is the call in one line: the tool and what it will do, for the
// list of pending approvals. run shows its command words and the
// directory it works in; write_file its path, size and the first line of
// its content; http_fetch its URL; memory its actions; the rest their
// target. It is escaped and never holds a line feed.
func Summary(p brokerwire.Pending) string {
	if server, tool, ok := policy.SplitMCP(p.Tool); ok {
		return termsafe.Line(cut(fmt.Sprintf("%s (MCP server %s, tool %s) %s", p.Tool, server, tool, Visible(p.Arguments)), summaryWidth))
	}
	a, err := parse(p.Arguments)
	if err != nil {
		return termsafe.Line(cut(p.Tool+" with arguments that are not valid: "+p.Arguments, summaryWidth))
	}
	var s string
	switch policy.Tool(p.Tool) {
	case policy.Run:
		s = "run " + Words(a.Command)
		if len(a.Paths) > 0 {
			s += " in " + shownPath(strings.Join(a.Paths, " "), p.Target)
		}
	case policy.WriteFile:
		content := ""
		if a.Content != nil {
			content = *a.Content
		}
		first, _, _ := strings.Cut(content, "\n")
		s = fmt.Sprintf("write_file %s (%s%s): %s", shownPath(a.Path, p.Target), size(len(content)), changeWords(p.Change), quote(first))
	case policy.HTTPFetch:
		s = "http_fetch " + a.URL
	case policy.Memory:
		var acts []string
		for _, x := range a.Actions {
			acts = append(acts, actionSummary(x))
		}
		s = "memory " + strings.Join(acts, "; ")
	case policy.Recall:
		s = "recall " + quote(a.Query)
	case policy.ReadFile, policy.ListDir:
		s = p.Tool + " " + shownPath(a.Path, p.Target)
	case policy.YaagRun:
		if a.Script != nil {
			s = fmt.Sprintf("yaag_run an inline script (%s) in %s", size(len(*a.Script)), a.Dir)
		} else {
			s = "yaag_run " + a.File
		}
		if m := p.Program; m != nil {
			// The files' hash begins here; bxctl approvals show has it whole,
			// with each file's.
			s += fmt.Sprintf(" (reads %d %s, sha256 %s…)", len(m.Files), plural(len(m.Files), "file", "files"), m.SHA256[:min(12, len(m.SHA256))])
		}
		if a.ForkHost {
			s += " with forkHost (it may fork this conversation)"
		}
	case policy.YaagSetupWorkspace:
		s = "yaag_setup_workspace in " + shownPath(a.Dir, p.Target) + " (writes .yaag/, and tsconfig.json when there is none)"
	default:
		s = p.Tool + " " + p.Arguments
	}
	return termsafe.Line(cut(s, summaryWidth))
}

// changeWords is what a write_file changes, for its summary line.
func changeWords(c *brokerwire.Change) string {
	switch {
	case c == nil:
		return ""
	case c.Creates:
		return ", a new file"
	case c.Diff != "":
		return fmt.Sprintf(", +%d -%d lines", c.Added, c.Removed)
	case c.Note == Identical:
		return ", the file's content already"
	case c.SHA256 != "":
		return fmt.Sprintf(", replaces %s", size(int(c.Size)))
	}
	return ", over a file not shown"
}

// currentFile is the file a write_file replaces, as brokerd read it.
func currentFile(c *brokerwire.Change) string {
	s := "the file now: " + size(int(c.Size))
	if c.SHA256 != "" {
		s += ", sha256 " + c.SHA256
	}
	return s
}

// shownPath is a path tool's path as the summary shows it: the target
// brokerd resolved and decided, which is what the call reads or writes,
// and the path the model wrote beside it when the two differ (a symbolic
// link, "..", a relative name): the owner approves the object, not the
// name.
func shownPath(written, target string) string {
	if target == "" || target == written {
		return written
	}
	return target + " (written " + written + ")"
}

func actionSummary(x memorywire.Action) string {
	switch x.Action {
	case memorywire.ActionAdd:
		return fmt.Sprintf("add to %s: %s", x.File, quote(x.Text))
	case memorywire.ActionReplace:
		return fmt.Sprintf("replace in %s %s with %s", x.File, quote(x.Old), quote(x.Text))
	case memorywire.ActionRemove:
		return fmt.Sprintf("remove from %s %s", x.File, quote(x.Old))
	case memorywire.ActionNote:
		return "note " + quote(x.Text)
	}
	return quote(x.Action) + " " + quote(x.Text)
}

// Options are how Render shows a call.
type Options struct {
	// Now is when it is shown: waiting and expiry are counted from it.
	Now time.Time
	// ContentLimit is how many bytes of write_file's content and of each
	// memory text are shown (0: 4096; below 0: all). The rest is cut at
	// a character boundary with a note saying how much was left out.
	ContentLimit int
	// More ends that note: how the reader sees it all ("bxctl approvals
	// show ID --full shows it all").
	More string
}

// DefaultContentLimit is Options.ContentLimit when it is 0.
const DefaultContentLimit = 4096

// Render writes the whole call: who asked, the hashes, and every
// argument, write_file's content and memory's texts in full up to the
// limit. Text from the model is shown in lines that begin with "  | ",
// so none of it can pass for a line of bxctl's own.
func Render(w io.Writer, p brokerwire.Pending, o Options) error {
	limit := o.ContentLimit
	if limit == 0 {
		limit = DefaultContentLimit
	}
	r := renderer{w: w, limit: limit, more: o.More}
	r.linef("approval %s: %s, waiting for the owner", termsafe.Line(p.ID), termsafe.Line(p.Tool))
	r.field("session", p.Session)
	r.field("call", p.Call)
	r.field("grant", orNone(p.Grant))
	r.field("target", orNone(p.Target))
	r.field("requested", fmt.Sprintf("%s (%s ago)", p.Requested.UTC().Format(time.RFC3339), o.Now.Sub(p.Requested).Round(time.Second)))
	r.field("expires", fmt.Sprintf("%s (in %s)", p.Expires.UTC().Format(time.RFC3339), p.Expires.Sub(o.Now).Round(time.Second)))
	r.field("call sha256", p.CallHash)
	r.field("arguments sha256", p.ArgumentsHash)
	r.linef("arguments:")
	if server, tool, ok := policy.SplitMCP(p.Tool); ok {
		// The server reads every key, so every key is shown, each value
		// whole: one argument per line, the JSON indented.
		r.field("  MCP server", server)
		r.field("  tool", tool)
		var pretty bytes.Buffer
		// Invisible characters are shown as their JSON escapes (Visible).
		if err := json.Indent(&pretty, []byte(p.Arguments), "", "  "); err != nil {
			r.field("  not valid", err.Error())
			r.text(Visible(p.Arguments))
			return r.err
		}
		r.field("  arguments", fmt.Sprintf("%s of JSON, sha256 %s", size(len(p.Arguments)), p.ArgumentsHash))
		r.text(Visible(pretty.String()) + "\n")
		return r.err
	}
	a, err := parse(p.Arguments)
	if err != nil {
		r.field("  not valid", err.Error())
		r.text(p.Arguments)
		return r.err
	}
	switch policy.Tool(p.Tool) {
	case policy.ReadFile, policy.ListDir:
		r.field("  path", a.Path)
	case policy.WriteFile:
		r.field("  path", a.Path)
		content := ""
		if a.Content != nil {
			content = *a.Content
		}
		r.field("  content", fmt.Sprintf("%s, %d %s, sha256 %s", size(len(content)), lines(content), plural(lines(content), "line", "lines"), SHA256([]byte(content))))
		if c := p.Change; c != nil && c.Diff != "" {
			// The owner approves a change to a file: what changes, not a
			// text to compare by eye with one they cannot see here.
			r.field("  replaces", currentFile(c))
			r.field("  change", fmt.Sprintf("%d %s added, %d removed (unified diff against the file as it was when brokerd asked)", c.Added, plural(c.Added, "line", "lines"), c.Removed))
			r.text(c.Diff)
			break
		}
		switch c := p.Change; {
		case c == nil:
		case c.Creates:
			r.field("  change", "creates a new file")
		default:
			r.field("  replaces", currentFile(c))
			r.field("  change", c.Note)
		}
		r.text(content)
	case policy.Run:
		r.field("  command", Words(a.Command))
		for i, word := range a.Command {
			r.field(fmt.Sprintf("    word %d", i+1), quote(word))
		}
		for i, path := range a.Paths {
			name := "  path"
			if i == 0 {
				name = "  workdir"
			}
			r.field(name, path)
		}
	case policy.HTTPFetch:
		r.field("  url", a.URL)
	case policy.YaagRun:
		// Every field yaag_run reads, each named whether the call has it
		// or not: forkHost hands the program a copy of this conversation,
		// and a field left out of the box could not be seen at all.
		r.field("  file", orNone(a.File))
		r.field("  dir", orNone(a.Dir))
		if a.Script != nil {
			r.field("  script", fmt.Sprintf("%s, %d %s, sha256 %s", size(len(*a.Script)), lines(*a.Script), plural(lines(*a.Script), "line", "lines"), SHA256([]byte(*a.Script))))
			r.text(*a.Script)
		} else {
			r.field("  script", "-")
		}
		if in := Compact(a.Input); len(a.Input) > 0 && in != "null" {
			r.field("  input", fmt.Sprintf("%s of JSON, sha256 %s", size(len(in)), SHA256([]byte(in))))
			r.text(in + "\n")
		} else {
			r.field("  input", "-")
		}
		r.field("  profile", orNone(a.Profile))
		if a.ForkHost {
			r.field("  forkHost", "true: the program may fork this conversation (ctx.host), a copy of all it holds")
		} else {
			r.field("  forkHost", "false")
		}
		if m := p.Program; m != nil {
			// What will run, file by file, in sha256sum's form: the owner
			// checks it with sha256sum in the directory, and the Run
			// refuses files that are not these.
			r.linef("program:")
			r.field("  dir", m.Dir)
			r.field("  files sha256", fmt.Sprintf("%s (of the lines below)", m.SHA256))
			for i, f := range m.Files {
				if r.limit >= 0 && i == maxProgramFiles {
					// An approval post has room for so many; the hash above
					// covers them all.
					note := fmt.Sprintf("  [%d more files not shown", len(m.Files)-i)
					if r.more != "" {
						note += "; " + r.more
					}
					r.linef("%s]", note)
					break
				}
				r.linef("  | %s  %s (%s)", termsafe.Line(f.SHA256), termsafe.Line(f.Path), size(int(f.Size)))
			}
		}
	case policy.YaagSetupWorkspace:
		r.field("  dir", a.Dir)
		r.field("  writes", ".yaag/types/ and .yaag/tsconfig.json (replaced whole), and tsconfig.json when there is none")
	case policy.Recall:
		r.field("  query", quote(a.Query))
		if a.Limit != 0 {
			r.field("  limit", fmt.Sprint(a.Limit))
		}
	case policy.Memory:
		for i, x := range a.Actions {
			r.field(fmt.Sprintf("  action %d", i+1), x.Action+" "+x.File)
			if x.Old != "" {
				r.field("    old", quote(x.Old))
			}
			if x.Text != "" {
				r.field("    text", fmt.Sprintf("%s, %d %s", size(len(x.Text)), lines(x.Text), plural(lines(x.Text), "line", "lines")))
				r.text(x.Text)
			}
		}
	}
	for _, kv := range otherKeys(p.Tool, []byte(p.Arguments)) {
		r.field("  "+kv[0], cut(kv[1], summaryWidth)+" (not read by "+p.Tool+")")
	}
	return r.err
}

type renderer struct {
	w     io.Writer
	limit int
	more  string
	err   error
}

func (r *renderer) linef(format string, args ...any) {
	if r.err == nil {
		_, r.err = fmt.Fprintf(r.w, format+"\n", args...)
	}
}

// field is a name and an escaped value on one line, values aligned.
func (r *renderer) field(name, value string) {
	r.linef("  %-18s %s", termsafe.Line(name), termsafe.Line(value))
}

// text shows a text from the model line by line, each escaped and behind
// "  | ", cut at the limit with a note.
func (r *renderer) text(s string) {
	shown, rest := s, ""
	if r.limit >= 0 && len(s) > r.limit {
		n := r.limit
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		shown, rest = s[:n], s[n:]
	}
	if shown == "" && rest == "" {
		r.linef("  | (empty)")
		return
	}
	body := strings.TrimSuffix(shown, "\n")
	for _, l := range strings.Split(body, "\n") {
		r.linef("  | %s", termsafe.Line(l))
	}
	switch {
	case rest != "":
		note := fmt.Sprintf("  [%s more in %d more %s not shown", size(len(rest)), lines(rest), plural(lines(rest), "line", "lines"))
		if r.more != "" {
			note += "; " + r.more
		}
		r.linef("%s]", note)
	case !strings.HasSuffix(s, "\n"):
		r.linef("  [no line feed at the end]")
	}
}

func parse(raw string) (Arguments, error) {
	var a Arguments
	if raw == "" || raw == "null" {
		return a, nil
	}
	err := json.Unmarshal([]byte(raw), &a)
	return a, err
}

// Words shows a command's words as a shell would read them back: a word
// of only safe characters as it is, any other in single quotes.
func Words(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellWord(w)
	}
	return strings.Join(q, " ")
}

func shellWord(w string) string {
	if w == "" {
		return "''"
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-./:=@%+,", c)) {
			return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return w
}

// quote shows a text from the model in double quotes, cut short.
func quote(s string) string { return `"` + cut(s, 80) + `"` }

// cut keeps the first n runes of s, marking what was left out.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

func lines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

func size(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
