package main

import (
	"math/rand"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

func newRand() *rand.Rand { return rand.New(rand.NewSource(time.Now().UnixNano())) }

func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills brokerd and the podman clients it started, as a
// service manager's stop of the whole unit would.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
