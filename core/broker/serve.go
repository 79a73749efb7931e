package broker

import (
	"context"
	"strings"
	"time"

	"boxmaker/audit"
)

// Podman is what brokerd asks of Podman at start, besides the calls
// (core/runner's *Runner).
type Podman interface {
	// CleanLeftovers removes the containers a stopped brokerd of this
	// home left behind and returns their names.
	CleanLeftovers(ctx context.Context) ([]string, error)
	// Check says what is wrong with [runner]: Podman, the runtime, the
	// tools image.
	Check(ctx context.Context) []error
}

// Sockets are brokerd's sockets once they are prepared (roles/rolecli's
// *Daemon): Serve answers on them until ctx ends, Close removes them.
type Sockets interface {
	Serve(ctx context.Context) error
	Close()
}

// leftoverWait bounds each of Podman's questions at start.
const leftoverWait = time.Minute

// Serve is brokerd's time of service, from its sockets' preparation to
// their end: it removes what a stopped brokerd left behind (its
// containers, then its yaag Runs' disks), warns of a wrong [runner],
// records start, serves the sockets until ctx ends, then ends the
// courier's carries and the Runs, and records stop. The sockets are
// closed when start cannot be recorded; nothing is served then.
func (b *Broker) Serve(ctx context.Context, podman Podman, sockets Sockets) error {
	if c := b.cfg.Courier; c != nil {
		c.Answer = b.AnswerApproval
		c.Start(ctx)
	}
	// Only the lock holder removes containers: another brokerd's would
	// otherwise go with them.
	cctx, cancel := context.WithTimeout(ctx, leftoverWait)
	left, err := podman.CleanLeftovers(cctx)
	cancel()
	switch {
	case err != nil:
		b.logf("cannot remove the containers a stopped brokerd left behind: %v", err)
	case len(left) > 0:
		b.logf("removed %d containers a stopped brokerd left behind: %s", len(left), strings.Join(left, " "))
	}
	// Their disks after them: the containers that wrote there are gone.
	if b.cfg.Yaag != nil {
		if ids := b.cfg.Yaag.CleanBoxes(); len(ids) > 0 {
			b.logf("ended %d yaag Runs a stopped brokerd left behind: %s", len(ids), strings.Join(ids, " "))
		}
	}
	// Podman and the tools image are asked about now, so that a wrong
	// [runner] is seen at start, not at the first call; brokerd still
	// serves (the grants may need no container, and the calls that do are
	// refused as runner-unavailable).
	cctx, cancel = context.WithTimeout(ctx, leftoverWait)
	for _, w := range podman.Check(cctx) {
		b.logf("warning: %v", w)
	}
	cancel()
	if _, err := b.cfg.Ledger.Append(audit.Record{Type: audit.TypeStart, Note: "brokerd serving"}); err != nil {
		sockets.Close()
		return err
	}
	serveErr := sockets.Serve(ctx)
	if c := b.cfg.Courier; c != nil {
		c.Stop()
	}
	// The Runs end with the brokerd that started them (their relay and
	// their limits are its): each container, and each disk kept.
	// So do the MCP servers: none outlives its brokerd.
	if b.cfg.MCP != nil {
		if n := b.cfg.MCP.Close(); n > 0 {
			b.logf("stopped %d MCP servers", n)
		}
	}
	if b.cfg.Yaag != nil {
		if n := b.cfg.Yaag.Close(); n > 0 {
			b.logf("ended %d yaag Runs", n)
		}
	}
	// Serve returns once every connection is done: approvals still
	// pending were recorded as abandoned by their calls.
	if _, err := b.cfg.Ledger.Append(audit.Record{Type: audit.TypeStop, Note: stopNote(serveErr)}); err != nil && serveErr == nil {
		serveErr = err
	}
	return serveErr
}

func stopNote(err error) string {
	if err != nil {
		return "stopped: " + err.Error()
	}
	return "stopped by a signal"
}
