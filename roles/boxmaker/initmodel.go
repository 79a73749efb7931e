package boxmaker

import (
	"context"
	"fmt"
	"strings"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/inferproxy"
	"boxmaker/core/loop"
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
		fmt.Printf("init: once the server answers, with inferproxy running: loopd selftest --config %s --print-expect\n", h.Path("etc", "loopd.toml"))
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
