package bxctl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/loop"
	"boxmaker/runbook"
)

// modelTimeout bounds each of the doctor's two requests to the model
// server: a server that takes longer to say it is healthy is not ready.
const modelTimeout = 10 * time.Second

// model asks the model server, through inferproxy's socket as loopd does,
// for /health and /props, and compares /props with loopd.toml's [expect]
// as loopd's selftest does (issue 25 item 7, D885). inferproxyUp says the
// socket answered; without it nothing can be asked.
func (d *doctor) model(ctx context.Context, ip conf.Inferproxy, l conf.Loopd, inferproxyUp bool) {
	if !inferproxyUp {
		d.warn("model", "not checked: inferproxy does not answer on %s, the only way to the model server at %s", ip.Listen, ip.Upstream)
		return
	}
	c := &loop.Client{Socket: ip.Listen, Model: l.Model, Timeout: modelTimeout}
	cctx, cancel := context.WithTimeout(ctx, modelTimeout)
	defer cancel()
	if err := c.Health(cctx); err != nil {
		d.problem("model", runbook.ModelServerUnavailable, runbook.Refuse(runbook.ModelServerUnavailable,
			"the model server at %s (inferproxy's upstream) is not ready: %s", ip.Upstream, modelCause(err)))
		return
	}
	p, err := c.Props(cctx)
	if err != nil {
		d.problem("model", runbook.ModelServerUnavailable, runbook.Refuse(runbook.ModelServerUnavailable,
			"the model server at %s (inferproxy's upstream) answers /health but not /props for model %q: %s", ip.Upstream, l.Model, modelCause(err)))
		return
	}
	x := loop.Expect{ChatTemplateSHA256: l.Expect.ChatTemplateSHA256, NCtxPerSlot: l.Expect.NCtxPerSlot, Slots: l.Expect.Slots}
	if diffs := x.Differences(p); len(diffs) > 0 {
		d.problem("model", runbook.LoopdSelftestFailed, runbook.Refuse(runbook.LoopdSelftestFailed,
			"the model server at %s is not the one loopd.toml's [expect] describes: %s (loopd's selftest fails on it)", ip.Upstream, strings.Join(diffs, "; ")))
		return
	}
	d.ok("model", "the model server at %s answers /health (ok) and /props for model %q as loopd.toml's [expect] says (chat template sha256 %.12s..., %d tokens per slot, %d slots)",
		ip.Upstream, l.Model, loop.TemplateSHA256(p.ChatTemplate), p.NCtx, p.TotalSlots)
}

// modelCause is the server's or inferproxy's words, on one line.
func modelCause(err error) string {
	var he *loop.HTTPError
	if errors.As(err, &he) {
		return fmt.Sprintf("GET %s answered HTTP %d: %s", he.Path, he.Status, he.Message)
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
