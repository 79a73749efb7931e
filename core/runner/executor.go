package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"

	"boxmaker/core/policy"
)

// Request is what the runner asks the executor inside the container to
// do: one JSON argument of `boxmaker tool-exec`.
type Request struct {
	Tool      string `json:"tool"`
	Path      string `json:"path"`              // the target; for run, the working directory
	Command   string `json:"command,omitempty"` // run: a shell command line
	Limit     int    `json:"limit"`             // bytes of content, of stdout, of stderr
	TimeoutMS int    `json:"timeout_ms,omitempty"`
	// http_fetch: the URL, the egress proxy's socket, the CA bundle.
	URL    string `json:"url,omitempty"`
	Socket string `json:"socket,omitempty"`
	CAFile string `json:"ca_file,omitempty"`
}

// Result is the executor's answer, printed as one JSON object. Error is
// set when the tool ran and failed (no such file, not a directory, ...):
// the model is told, and nothing about the runner is wrong.
type Result struct {
	Tool  string `json:"tool"`
	Path  string `json:"path,omitempty"`
	Error string `json:"error,omitempty"`

	// read_file: the file (at most Limit bytes, then a note); Size is the
	// file's size. write_file: Size is the bytes written.
	Content   string `json:"content,omitempty"`
	Size      int64  `json:"size,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`

	// list_dir, sorted by name; Truncated with a Note past Limit bytes of names.
	Entries []DirEntry `json:"entries,omitempty"`
	Note    string     `json:"note,omitempty"`

	// run: stdout and stderr each cut at Limit bytes with a note.
	ExitCode        int    `json:"exit_code,omitempty"`
	Stdout          string `json:"stdout,omitempty"`
	Stderr          string `json:"stderr,omitempty"`
	StdoutTruncated bool   `json:"stdout_truncated,omitempty"`
	StderrTruncated bool   `json:"stderr_truncated,omitempty"`
	TimedOut        bool   `json:"timed_out,omitempty"`

	// http_fetch: where the body came from (after same-host redirects),
	// the status and content type; the body is Content (Size bytes read,
	// Truncated at Limit), Note holds a redirect not followed or a body
	// not shown.
	URL         string `json:"url,omitempty"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"content_type,omitempty"`

	// Mounted is set by the runner on the host, never read from the
	// container: what each mount of the container was (the decided path,
	// ro or rw, and the object's device and inode), for the audit log.
	Mounted []string `json:"-"`
}

// DirEntry is one name in a listed directory.
type DirEntry struct {
	Name string `json:"name"`
	Type string `json:"type"` // EntryFile, EntryDir, EntrySymlink or EntryOther
	Size int64  `json:"size,omitempty"`
}

// The types of a DirEntry.
const (
	EntryFile    = "file"
	EntryDir     = "dir"
	EntrySymlink = "symlink"
	EntryOther   = "other"
)

// Tools are the tools the runner runs.
var Tools = []string{string(policy.ReadFile), string(policy.WriteFile), string(policy.ListDir), string(policy.Run), string(policy.YaagSetupWorkspace)}

// SetupWorkspace does a yaag_setup_workspace request inside the container:
// write (core/yaag/workspace's, given by the tool executor's command, so
// that the runner links no yaag engine) writes .yaag/ in the decided
// directory, mounted at its own path; done is the line a finished setup
// says.
func SetupWorkspace(req Request, write func(dir string) error, done string) Result {
	res := Result{Tool: req.Tool, Path: req.Path}
	fi, err := os.Lstat(req.Path)
	switch {
	case err != nil:
		res.Error = pathError(err)
	case !fi.IsDir():
		res.Error = fmt.Sprintf("%s is not a directory", req.Path)
	default:
		if err := write(req.Path); err != nil {
			res.Error = err.Error()
			return res
		}
		res.Content = done
	}
	return res
}

// Execute does one request. It runs inside the container: paths are the
// container's, which are the host's (the runner mounts each target at its
// own path). stdin is write_file's content.
func Execute(ctx context.Context, req Request, stdin io.Reader) Result {
	res := Result{Tool: req.Tool, Path: req.Path}
	if req.Limit <= 0 {
		res.Error = "the request has no output limit"
		return res
	}
	switch policy.Tool(req.Tool) {
	case policy.ReadFile:
		readFile(req, &res)
	case policy.WriteFile:
		writeFile(req, stdin, &res)
	case policy.ListDir:
		listDir(req, &res)
	case policy.Run:
		runCommand(ctx, req, &res)
	case policy.HTTPFetch:
		res.Path = ""
		fetchURL(ctx, req, &res)
	default:
		res.Error = fmt.Sprintf("unknown tool %q", req.Tool)
	}
	return res
}

// Notes are the executor's own notes on a result (a text cut at its
// limit, a command killed at its timeout, a listing or body not shown
// whole), each "[boxmaker: ...]", as they end the texts they are in. They
// are found by the flags the executor set, never by what the texts say: a
// command that prints a line like a note has not written one.
func (r Result) Notes() []string {
	var notes []string
	if r.Tool == string(policy.ReadFile) && r.Truncated {
		notes = appendLast(notes, r.Content)
	}
	if r.StdoutTruncated {
		notes = appendLast(notes, r.Stdout)
	}
	stderr := r.Stderr
	var killed string
	if r.TimedOut {
		if i := strings.LastIndex(stderr, noteStart); i >= 0 {
			stderr, killed = stderr[:i], stderr[i+1:]
		}
	}
	if r.StderrTruncated {
		notes = appendLast(notes, stderr)
	}
	if killed != "" {
		notes = append(notes, killed)
	}
	if r.Note != "" {
		notes = append(notes, strings.Split(r.Note, "\n")...)
	}
	return notes
}

// noteStart begins a note that ends a text.
const noteStart = "\n[boxmaker: "

// appendLast appends the note that ends text, if it holds one.
func appendLast(notes []string, text string) []string {
	if i := strings.LastIndex(text, noteStart); i >= 0 {
		return append(notes, text[i+1:])
	}
	return notes
}

// truncNote is the note that ends a text cut at its limit.
func truncNote(what string, total int64, limit int) string {
	return fmt.Sprintf("\n[boxmaker: %s truncated: %d bytes, the first %d shown]", what, total, limit)
}

func readFile(req Request, res *Result) {
	f, err := os.Open(req.Path)
	if err != nil {
		res.Error = pathError(err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		res.Error = pathError(err)
		return
	}
	if !fi.Mode().IsRegular() {
		res.Error = fmt.Sprintf("%s is not a regular file", req.Path)
		return
	}
	buf, err := io.ReadAll(io.LimitReader(f, int64(req.Limit)+1))
	if err != nil {
		res.Error = pathError(err)
		return
	}
	res.Size = fi.Size()
	if len(buf) > req.Limit {
		buf = buf[:req.Limit]
		res.Truncated = true
	}
	res.Content = string(buf)
	if res.Truncated {
		res.Content += truncNote("file", max(res.Size, int64(req.Limit)+1), req.Limit)
	}
}

func writeFile(req Request, stdin io.Reader, res *Result) {
	// The runner mounts the file itself, so it is written in place: a
	// rename would need the directory, which is not mounted.
	f, err := os.OpenFile(req.Path, os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW, 0)
	if err != nil {
		res.Error = pathError(err)
		return
	}
	n, err := io.Copy(f, stdin)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	res.Size = n
	if err != nil {
		res.Error = pathError(err)
	}
}

func listDir(req Request, res *Result) {
	des, err := os.ReadDir(req.Path)
	if err != nil {
		res.Error = pathError(err)
		return
	}
	sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
	used := 0
	res.Entries = []DirEntry{}
	for i, de := range des {
		used += len(de.Name())
		if used > req.Limit {
			res.Truncated = true
			res.Note = fmt.Sprintf("[boxmaker: listing truncated: %d entries, the first %d shown]", len(des), i)
			break
		}
		e := DirEntry{Name: de.Name(), Type: EntryOther}
		switch t := de.Type(); {
		case t.IsRegular():
			e.Type = EntryFile
			if fi, err := de.Info(); err == nil {
				e.Size = fi.Size()
			}
		case t.IsDir():
			e.Type = EntryDir
		case t&fs.ModeSymlink != 0:
			e.Type = EntrySymlink
		}
		res.Entries = append(res.Entries, e)
	}
}

// capture keeps the first limit bytes written to it and counts the rest.
type capture struct {
	buf   bytes.Buffer
	limit int
	total int64
}

func (c *capture) Write(p []byte) (int, error) {
	c.total += int64(len(p))
	if room := c.limit - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capture) text(what string) (string, bool) {
	if c.total <= int64(c.limit) {
		return c.buf.String(), false
	}
	return c.buf.String() + truncNote(what, c.total, c.limit), true
}

func runCommand(ctx context.Context, req Request, res *Result) {
	if req.Command == "" {
		res.Error = "run needs a command"
		return
	}
	if req.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	dir := "/"
	if fi, err := os.Stat(req.Path); err == nil && fi.IsDir() {
		dir = req.Path
	}
	stdout, stderr := &capture{limit: req.Limit}, &capture{limit: req.Limit}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", req.Command)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/bin", "HOME=/tmp", "TMPDIR=/tmp"}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The command's own children die with it: kill the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	res.Stdout, res.StdoutTruncated = stdout.text("stdout")
	res.Stderr, res.StderrTruncated = stderr.text("stderr")
	if ctx.Err() != nil && cmd.ProcessState != nil && !cmd.ProcessState.Success() {
		res.TimedOut = true
		res.Stderr += fmt.Sprintf("\n[boxmaker: the command was killed after %d ms]", req.TimeoutMS)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal()) // as a shell reports it
		}
	case err != nil && cmd.ProcessState == nil:
		res.Error = fmt.Sprintf("cannot start the command: %v", err)
	}
}

// pathError is an error about a path as the model may see it: the
// operation and the reason, with the path that was asked for.
func pathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s %s: %v", pe.Op, pe.Path, pe.Err)
	}
	return err.Error()
}
