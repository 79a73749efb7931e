package boxmaker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/inferproxy"
	"boxmaker/core/loop"
	"boxmaker/core/role"
	"boxmaker/roles/rolecli"
)

// modelServer is what init --model-url learnt of the model server: its
// URL, and, when it answered, the model's name and what loopd's [expect]
// must say (Problem says why not, otherwise).
type modelServer struct {
	URL     string
	Model   string
	Named   bool // Model is --model's, not the server's first
	Props   *loop.Props
	Problem error
}

// modelFlag is the --model of the commands that take --model-url (init,
// demo): the model's name, when the server's first is not the one meant.
var modelFlag = &cli.StringFlag{Name: "model", Usage: "the model's `NAME` at --model-url (default: the first of its /v1/models)"}

// askModelServer asks the llama-server at u for its model (/v1/models,
// unless model is given) and its /props. A URL that cannot be an upstream
// is a usage error; a server that does not answer is not an error: init
// writes the upstream and says how to fill the rest later.
func askModelServer(ctx context.Context, u, model string) (modelServer, error) {
	u = strings.TrimRight(u, "/")
	if _, err := inferproxy.ParseUpstream(u); err != nil {
		return modelServer{}, rolecli.Usagef("--model-url: %v", err)
	}
	if !tomlSafe(u) {
		return modelServer{}, rolecli.Usagef("--model-url %q has a character a configuration value cannot hold", u)
	}
	ms := modelServer{URL: u, Model: model, Named: model != ""}
	if ms.Model == "" {
		m, err := firstModel(ctx, u)
		if err != nil {
			ms.Problem = err
			return ms, nil
		}
		ms.Model = m
	}
	if !tomlSafe(ms.Model) {
		ms.Problem = fmt.Errorf("%s/v1/models names the model %q, which a configuration value cannot hold; name it with --model", u, ms.Model)
		ms.Model = ""
		return ms, nil
	}
	p, err := modelProps(ctx, u, ms.Model)
	if err != nil {
		ms.Problem = err
		return ms, nil
	}
	ms.Props = &p
	return ms, nil
}

// tomlSafe reports whether s can stand in a configuration's quoted string
// as it is.
func tomlSafe(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 || r == 0x7f })
}

// fill puts what init learnt into the configurations' data.
func (ms modelServer) fill(d conf.TemplateData) conf.TemplateData {
	d.Upstream = ms.URL
	if ms.Props != nil {
		d.Model = ms.Model
		d.ExpectSHA256 = loop.TemplateSHA256(ms.Props.ChatTemplate)
		d.ExpectNCtx, d.ExpectSlots = ms.Props.NCtx, ms.Props.TotalSlots
	}
	return d
}

// report says what init wrote of the model server, or why not.
func (ms modelServer) report(h home.Home) {
	if ms.URL == "" {
		return
	}
	fmt.Printf("init: inferproxy's upstream is %s\n", ms.URL)
	if ms.Props == nil {
		fmt.Printf("init: loopd's model and [expect] left as they are: %s\n", ms.Problem)
		fmt.Printf("init: once the server answers, with inferproxy running: loopd selftest --config %s --print-expect\n", h.Config(role.Loopd))
		return
	}
	if ms.Named {
		fmt.Printf("init: loopd's model is %q (--model)\n", ms.Model)
	} else {
		fmt.Printf("init: loopd's model is %q, as %s/v1/models names it\n", ms.Model, ms.URL)
	}
	fmt.Printf("init: loopd's [expect] is what %s/props reports: chat_template_sha256 %s, n_ctx_per_slot %d, slots %d; loopd's selftest checks it at every start\n",
		ms.URL, loop.TemplateSHA256(ms.Props.ChatTemplate), ms.Props.NCtx, ms.Props.TotalSlots)
}

// firstModel is the first model a server lists at /v1/models.
func firstModel(ctx context.Context, base string) (string, error) {
	c := &loop.Client{URL: base, Timeout: modelServerWait}
	ids, err := c.Models(ctx)
	if err != nil {
		return "", modelServerError(base, err)
	}
	if len(ids) == 0 || ids[0] == "" {
		return "", fmt.Errorf("%s/v1/models lists no model; name one with --model", base)
	}
	return ids[0], nil
}

// modelProps is what loopd's [expect] must say of the server: what its
// /props reports for the model.
func modelProps(ctx context.Context, base, model string) (loop.Props, error) {
	c := &loop.Client{URL: base, Model: model, Timeout: modelServerWait}
	p, err := c.Props(ctx)
	if err != nil {
		return loop.Props{}, modelServerError(base, err)
	}
	if p.ChatTemplate == "" || p.NCtx == 0 || p.TotalSlots == 0 {
		return loop.Props{}, fmt.Errorf("%s/props has no chat_template, n_ctx or total_slots: is it llama-server?", base)
	}
	return p, nil
}

// modelServerWait is how long init and the demo wait for a model
// server's answer.
const modelServerWait = 30 * time.Second

// modelServerError says why the model server at base could not be asked,
// in the operator's words rather than the dialer's, and what to do. A
// server that answered (with a status other than 200) is said as it is.
func modelServerError(base string, err error) error {
	var he *loop.HTTPError
	if errors.As(err, &he) {
		return fmt.Errorf("%s: %w", base, err)
	}
	u, perr := url.Parse(base)
	if perr != nil {
		return err
	}
	server := u.Scheme + "://" + u.Host
	standin := "or run boxmaker demo without --model-url: the scripted stand-in needs no model"
	var dnsErr *net.DNSError
	var timeout interface{ Timeout() bool }
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return rolecli.WithHint(fmt.Errorf("no model server answers at %s: nothing listens there", server),
			"start llama-server there (llama-server -m MODEL.gguf --port "+u.Port()+"), or give --model-url where it listens", standin)
	case errors.As(err, &dnsErr):
		return rolecli.WithHint(fmt.Errorf("cannot find the model server's host %s: %v", u.Hostname(), dnsErr.Err), "check --model-url", standin)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeout) && timeout.Timeout():
		return rolecli.WithHint(fmt.Errorf("the model server at %s did not answer within %v", server, modelServerWait),
			"a server still loading its model answers 503 at once; one that says nothing may be another program", standin)
	}
	return rolecli.WithHint(fmt.Errorf("cannot ask the model server at %s: %v", server, err), standin)
}
