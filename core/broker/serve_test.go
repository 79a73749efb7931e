package broker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/audit"
	"boxmaker/core/policy"
)

// podmanAtStart answers Serve's questions as a Podman with leftovers and
// a wrong [runner] would.
type podmanAtStart struct {
	left     []string
	leftErr  error
	warnings []error
	asked    []string
}

func (p *podmanAtStart) CleanLeftovers(context.Context) ([]string, error) {
	p.asked = append(p.asked, "leftovers")
	return p.left, p.leftErr
}

func (p *podmanAtStart) Check(context.Context) []error {
	p.asked = append(p.asked, "check")
	return p.warnings
}

// recordingLedger keeps the records' types and notes, failing from the
// record fail on (0: never).
type recordingLedger struct {
	mu      sync.Mutex
	records []string
	fail    int
}

func (l *recordingLedger) Append(r audit.Record) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail > 0 && len(l.records)+1 >= l.fail {
		return 0, errors.New("the disk is full")
	}
	l.records = append(l.records, string(r.Type)+": "+r.Note)
	return uint64(len(l.records)), nil
}

func (l *recordingLedger) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.records...)
}

// sockets stand for brokerd's: Serve notes what the ledger held when it
// began, and answers err.
type sockets struct {
	led      *recordingLedger
	err      error
	atServe  []string
	served   bool
	closed   bool
	asServed func()
}

func (s *sockets) Serve(context.Context) error {
	s.served = true
	s.atServe = s.led.seen()
	if s.asServed != nil {
		s.asServed()
	}
	return s.err
}

func (s *sockets) Close() { s.closed = true }

type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func serveBroker(t *testing.T, led Ledger, log *syncLog, c *Courier) *Broker {
	t.Helper()
	dir := t.TempDir()
	g := policy.Open(filepath.Join(dir, "grants"))
	t.Cleanup(func() { g.Close() })
	b, err := New(Config{Ledger: led, Grants: g, Runner: &fakeRunner{}, SessionsDir: filepath.Join(dir, "sessions"),
		MemoryTimeout: time.Second, ExpireAfter: time.Minute, Log: log, Courier: c})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Start is recorded after the leftovers are gone and [runner] is checked,
// and before anything is served; stop after the sockets end, with why.
func TestServeRecordsStartBeforeServingAndStopAfter(t *testing.T) {
	for _, tt := range []struct {
		name     string
		serveErr error
		stop     string
	}{
		{"a signal", nil, "stop: stopped by a signal"},
		{"a socket lost", errors.New("the listener was lost"), "stop: stopped: the listener was lost"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			led := &recordingLedger{}
			var log syncLog
			courier := &Courier{Socket: filepath.Join(t.TempDir(), "gateway.sock"), Log: func(string, ...any) {}}
			b := serveBroker(t, led, &log, courier)
			podman := &podmanAtStart{left: []string{"bx-1", "bx-2"}, warnings: []error{errors.New("podman: the tools image is not loaded")}}
			s := &sockets{led: led, err: tt.serveErr, asServed: func() {
				if courier.Answer == nil {
					t.Error("the courier cannot record an answer while brokerd serves")
				}
			}}
			err := b.Serve(context.Background(), podman, s)
			if !errors.Is(err, tt.serveErr) {
				t.Errorf("Serve: %v, want %v", err, tt.serveErr)
			}
			if diff := cmp.Diff([]string{"leftovers", "check"}, podman.asked); diff != "" {
				t.Errorf("Podman was asked (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"start: brokerd serving"}, s.atServe); diff != "" {
				t.Errorf("the ledger when serving began (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"start: brokerd serving", tt.stop}, led.seen()); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			want := "brokerd: removed 2 containers a stopped brokerd left behind: bx-1 bx-2\n" +
				"brokerd: warning: podman: the tools image is not loaded\n"
			if log.String() != want {
				t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
			}
		})
	}
}

// A brokerd that cannot record its start serves nothing: its sockets are
// closed, and Podman's failure to clean up is said but does not stop it.
func TestServeWithoutAStartRecordServesNothing(t *testing.T) {
	led := &recordingLedger{fail: 1}
	var log syncLog
	b := serveBroker(t, led, &log, nil)
	s := &sockets{led: led}
	err := b.Serve(context.Background(), &podmanAtStart{leftErr: errors.New("podman: not found")}, s)
	if err == nil || err.Error() != "the disk is full" {
		t.Errorf("Serve: %v, want the ledger's error", err)
	}
	if s.served || !s.closed {
		t.Errorf("served %v, closed %v: want the sockets closed unserved", s.served, s.closed)
	}
	if want := "brokerd: cannot remove the containers a stopped brokerd left behind: podman: not found\n"; log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
	}
}
