package rolecli

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"

	"boxmaker/runbook"
)

// ReasonFDEnv names the file descriptor on which a role that stops with a
// refusal writes why, for the process that started it (boxmaker up): one
// JSON line {"entry":"<entry>","text":"<public text>"}. The starter reads
// the refusal back with ReadReason instead of parsing the child's last
// line of output.
const ReasonFDEnv = "BOXMAKER_REASON_FD"

// reasonLine is the line on the reason descriptor.
type reasonLine struct {
	Entry string `json:"entry"`
	Text  string `json:"text"`
}

// TakeReasonFD is the reason descriptor this process was given, or nil.
// The variable is removed and the descriptor closed on exec, so that no
// program this one starts (Podman, a tool, yaag) writes to it.
func TakeReasonFD() *os.File {
	v, ok := os.LookupEnv(ReasonFDEnv)
	if !ok {
		return nil
	}
	os.Unsetenv(ReasonFDEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "reason")
}

// WriteReason writes err's refusal on w as runbook.Public gives it (its
// entry, and its whole message but its link), when err holds one whose
// message ends with its link; nothing otherwise, and the starter falls
// back to the child's last line.
func WriteReason(w io.Writer, err error) {
	e, text, ok := runbook.Public(err)
	if w == nil || !ok {
		return
	}
	line, _ := json.Marshal(reasonLine{Entry: e.String(), Text: text})
	w.Write(append(line, '\n'))
}

// ReadReason reads what a child wrote on its reason descriptor: its
// refusal made again, or nil when it wrote none or named no known entry.
func ReadReason(r io.Reader) *runbook.Refusal {
	data, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil && !errors.Is(err, os.ErrClosed) {
		return nil
	}
	var l reasonLine
	if json.Unmarshal(data, &l) != nil {
		return nil
	}
	e, ok := runbook.Lookup(l.Entry)
	if !ok {
		return nil
	}
	return &runbook.Refusal{Entry: e, Text: l.Text}
}
