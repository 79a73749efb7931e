package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/testsupport/daemontest"
)

func TestANewSessionIsOfferedTheYaagToolsItsGrantsName(t *testing.T) {
	for _, tt := range []struct {
		name    string
		granted []string // nil: brokerd does not answer tools.granted
		want    []string // the yaag tools offered
	}{
		{"no answer: loopd's own tools", nil, nil},
		{"no yaag grant", []string{"read_file"}, nil},
		{"yaag_run and yaag_status granted", []string{"read_file", "yaag_status", "yaag_run"}, []string{"yaag_run", "yaag_status"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Hi."}}})
			kinds := map[string]daemon.Handler{}
			if tt.granted != nil {
				kinds["tools.granted"] = func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
					return map[string]any{"tools": tt.granted}, nil
				}
			}
			r.eng.Broker.Socket = daemontest.Peer(t, r.dir, "broker2", kinds)
			res, _ := r.mustTurn(t, "", "Hello")
			tools := r.records(t, res.Session)[0].Tools
			var defs []struct {
				Function struct{ Name string } `json:"function"`
			}
			json.Unmarshal(tools, &defs)
			var yaag []string
			for _, d := range defs[7:] {
				yaag = append(yaag, d.Function.Name)
			}
			if len(yaag) != len(tt.want) || (len(yaag) > 0 && (yaag[0] != tt.want[0] || yaag[len(yaag)-1] != tt.want[len(tt.want)-1])) {
				t.Errorf("yaag tools %v, want %v", yaag, tt.want)
			}
			if tt.want == nil && !bytes.Equal(tools, ToolDefinitions) {
				t.Errorf("the tools changed without a yaag grant:\n%s", tools)
			}
		})
	}
}
