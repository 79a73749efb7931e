package bxctl

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/loopwire"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

// turnView shows one turn as it happens: the reply as it streams, a line
// for each tool call and result, and on a terminal a status line while
// the chat waits (for the model to begin, a tool to run, an approval),
// redrawn in place with the time waited; at the end, the turn's usage.
type turnView struct {
	ch      *chatter
	live    bool   // draw the status line
	midLine bool   // the reply's text left the cursor inside a line
	waiting string // what is awaited; empty: nothing (the reply streams)
	since   time.Time
	shown   string // the status line on the screen now
	usage   *loopwire.Usage
	// asking is the approval the chat's user may answer here (y/n),
	// "" when none.
	asking string
}

// waitModel is what the chat waits for until the model begins to answer.
const waitModel = "the model"

// statusAfter is how long a wait lasts before the status line shows: a
// reply that begins at once is not preceded by a flash of it.
const statusAfter = 200 * time.Millisecond

func (v *turnView) now() time.Time {
	if v.ch.now != nil {
		return v.ch.now()
	}
	return time.Now()
}

// wait sets what is awaited from now on.
func (v *turnView) wait(what string) {
	v.waiting, v.since = what, v.now()
}

// status is the status line for the wait, or "" while nothing is awaited.
func (v *turnView) status() string {
	if v.waiting == "" {
		return ""
	}
	d := v.now().Sub(v.since)
	if d < statusAfter {
		return ""
	}
	return fmt.Sprintf("  ... waiting for %s (%ds)", v.waiting, int(d/time.Second))
}

// draw puts the status line on the screen, or takes it off, when it
// changed; never inside a line of the reply.
func (v *turnView) draw() {
	if !v.live || v.midLine {
		return
	}
	s := v.status()
	if w := v.ch.width(); w > 1 && utf8.RuneCountInString(s) >= w {
		s = string([]rune(s)[:w-1]) // one row: \r and erase-line take it off again
	}
	if s == v.shown {
		return
	}
	fmt.Fprint(v.ch.out, "\r\x1b[K"+s)
	v.shown = s
}

// clear takes the status line off before anything else is written.
func (v *turnView) clear() {
	if v.shown != "" {
		fmt.Fprint(v.ch.out, "\r\x1b[K")
		v.shown = ""
	}
}

// show shows one event and sets what is awaited after it.
func (v *turnView) show(e loopwire.Event) {
	ch := v.ch
	switch e.Event {
	case loopwire.EventSession:
		if ch.session == e.Session {
			return // shown when the chat began
		}
		ch.session = e.Session
	case loopwire.EventText:
		v.clear()
		v.waiting = ""
		fmt.Fprint(ch.out, termsafe.Text(e.Text)) // the model's words: nothing in them acts on the terminal
		v.midLine = !strings.HasSuffix(e.Text, "\n")
		return
	case loopwire.EventUsage:
		v.usage = e.Usage
		return
	case loopwire.EventToolCall:
		v.wait("tool " + callSummary(e.Tool, e.Arguments))
	case loopwire.EventAsked:
		v.wait(termsafe.Line(fmt.Sprintf("approval %s ('bxctl approve %s' in another terminal)", e.Approval, e.Approval)))
	case loopwire.EventToolResult:
		v.wait(waitModel)
		v.asking = "" // answered, here or elsewhere, or ended
	}
	line := showEvent(e)
	if line == "" {
		return
	}
	v.clear()
	if v.midLine {
		fmt.Fprintln(ch.out)
		v.midLine = false
	}
	fmt.Fprintln(ch.out, line)
	v.draw()
}

// finish ends the turn's view: the status line off, the reply's last
// line ended, and the usage line.
func (v *turnView) finish() {
	v.clear()
	if v.midLine {
		fmt.Fprintln(v.ch.out)
		v.midLine = false
	}
	if v.usage != nil {
		for _, l := range usageLines(*v.usage, false) {
			fmt.Fprintln(v.ch.out, l)
		}
	}
}

// stopped ends the view of a turn the person stopped: what its model
// requests took before the stop, when one had ended (loopd sends the sums
// before each request after the first); the request cut is not counted.
func (v *turnView) stopped() {
	if v.usage != nil {
		for _, l := range usageLines(*v.usage, true) {
			fmt.Fprintln(v.ch.out, l)
		}
	}
}

// callSummary is a tool call in a few words: the tool and what it acts
// on (run's command, a path, a URL), made safe for the terminal and cut.
func callSummary(tool string, args json.RawMessage) string {
	var a struct {
		Command []string `json:"command"`
		Path    string   `json:"path"`
		URL     string   `json:"url"`
		Query   string   `json:"query"`
	}
	json.Unmarshal(args, &a)
	what := ""
	switch {
	case len(a.Command) > 0:
		what = strings.Join(a.Command, " ")
	case a.Path != "":
		what = a.Path
	case a.URL != "":
		what = a.URL
	case a.Query != "":
		what = a.Query
	}
	s := strings.TrimSpace(tool + " " + what)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return termsafe.Line(s)
}

// usageLines is the end of a turn in the terminal: the tokens in and out,
// the prompt cache's reuse and the context used, and loopd's note when
// the cache was lost; of a turn stopped, the requests before the stop.
func usageLines(u loopwire.Usage, stopped bool) []string {
	prompt := u.PromptTokens + u.CachedTokens
	reuse := 0
	if prompt > 0 {
		reuse = u.CachedTokens * 100 / prompt
	}
	ctx := fmt.Sprintf("context %d tokens", u.Context)
	if u.NCtx > 0 {
		ctx = fmt.Sprintf("context %d of %d tokens (%d%%)", u.Context, u.NCtx, u.Context*100/u.NCtx)
	}
	reqs := ""
	switch {
	case stopped && u.Requests == 1:
		reqs = "stopped after 1 model request: "
	case stopped:
		reqs = fmt.Sprintf("stopped after %d model requests: ", u.Requests)
	case u.Requests > 1:
		reqs = fmt.Sprintf("%d model requests: ", u.Requests)
	}
	lines := []string{fmt.Sprintf("  [turn] %stokens %d in, %d out; cache reused %d of %d prompt tokens (%d%%); %s",
		reqs, u.PromptTokens, u.OutputTokens, u.CachedTokens, prompt, reuse, ctx)}
	if u.CacheLost != "" {
		lines = append(lines, "  [turn] "+termsafe.Line(u.CacheLost))
	}
	return lines
}

// maxShownResult is how much of a tool's result the chat shows.
const maxShownResult = 200

// showEvent is how one event reads in the terminal; text is printed as
// it comes, not here. What the model or a tool wrote is made safe for
// the terminal.
func showEvent(e loopwire.Event) string {
	switch e.Event {
	case loopwire.EventSession:
		return "session " + termsafe.Line(e.Session)
	case loopwire.EventToolCall:
		return fmt.Sprintf("  [tool %s %s] %s", termsafe.Line(e.CallID), termsafe.Line(e.Tool), termsafe.Line(string(e.Arguments)))
	case loopwire.EventAsked:
		return termsafe.Line(fmt.Sprintf("  [tool %s] asked: approval %s; run 'bxctl approve %s' in another terminal", e.CallID, e.Approval, e.Approval))
	case loopwire.EventToolResult:
		text := e.Text
		if len(text) > maxShownResult {
			text = text[:maxShownResult] + "..."
		}
		// brokerd's texts often begin with the outcome ("denied: ..."): say it once.
		text = strings.TrimPrefix(text, e.Outcome+": ")
		// A tool's result (a file, a page) is shown escaped and indented,
		// so that none of it acts on the terminal or passes for a line of
		// bxctl's own.
		line := fmt.Sprintf("  [tool %s] %s: %s", termsafe.Line(e.CallID), termsafe.Line(e.Outcome), strings.ReplaceAll(termsafe.Text(text), "\n", "\n    "))
		// The runner's own notes (a cut, a kill) show however long the
		// result is.
		for _, n := range e.Notes {
			if !strings.Contains(text, n) {
				line += "\n    " + termsafe.Line(n)
			}
		}
		if e.Resolved != "" { // where a denied link leads: yours to see, not the model's
			line += "\n    (the path resolves to " + termsafe.Line(e.Resolved) + ")"
		}
		return line
	case loopwire.EventNotice: // loopd's own word on the reply, such as a cut-off
		return "  [loopd] " + termsafe.Line(e.Text)
	}
	return ""
}

// offerAnswer shows the call waiting on approval id whole, as bxctl
// approvals show does (a write_file's diff among it), and lets the
// chat's user answer it with y or n, when brokerd's admin socket takes
// their requests: then they are the owner, who answers approvals. When
// it does not, the chat's line already says to answer elsewhere.
func (v *turnView) offerAnswer(ctx context.Context, id string) {
	ch := v.ch
	var p brokerwire.Pending
	if err := (peer{role.Brokerd, ch.admin}).call(ctx, 5*time.Second, brokerwire.KindApprovalShow, brokerwire.ApprovalShow{ID: id}, &p, nil); err != nil {
		return
	}
	v.clear()
	if v.midLine {
		fmt.Fprintln(ch.out)
		v.midLine = false
	}
	approval.Render(ch.out, p, approval.Options{Now: v.now(), More: fmt.Sprintf("bxctl approvals show %s --full shows it all", id)})
	fmt.Fprintf(ch.out, "approve %s? y approves, n refuses (or answer from another terminal or Mattermost)\n", termsafe.Line(id))
	v.asking = id
	v.wait(termsafe.Line(fmt.Sprintf("approval %s (y or n)", id)))
	v.draw()
}

// answerKey answers the approval on offer when keys are y or n (and
// says so); other keys are left to wait for the next prompt.
func (v *turnView) answerKey(ctx context.Context, keys string) bool {
	var answer string
	switch strings.TrimRight(keys, "\r\n") {
	case "y", "Y":
		answer = brokerwire.Approve
	case "n", "N":
		answer = brokerwire.Refuse
	default:
		return false
	}
	ch, id := v.ch, v.asking
	v.asking = ""
	var p brokerwire.Pending
	err := (peer{role.Brokerd, ch.admin}).call(ctx, 30*time.Second, brokerwire.KindApprovalAnswer, brokerwire.ApprovalAnswer{ID: id, Answer: answer}, &p, nil)
	v.clear()
	if err != nil {
		rolecli.WriteError(ch.errOut, role.Bxctl.String(), err)
	} else {
		word := "approved"
		if answer == brokerwire.Refuse {
			word = "refused"
		}
		fmt.Fprintf(ch.out, "%s: %s %s in the chat\n", answer, termsafe.Line(id), word)
	}
	v.wait(waitModel)
	v.draw()
	return true
}
