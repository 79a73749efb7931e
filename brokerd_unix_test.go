package main

import (
	"math/rand"
	"os/exec"
	"syscall"
	"time"
)

func newRand() *rand.Rand { return rand.New(rand.NewSource(time.Now().UnixNano())) }

func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills brokerd and the podman clients it started, as a
// service manager's stop of the whole unit would.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
