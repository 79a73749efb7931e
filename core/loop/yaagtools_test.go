package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// A new session is offered the MCP tools brokerd says it may be offered
// (mcp.tools, for that session), after its own and the yaag tools, with
// the accepted schema; none without an mcp grant or an answer.
func TestANewSessionIsOfferedTheMCPToolsBrokerdOffers(t *testing.T) {
	for _, tt := range []struct {
		name    string
		granted []string
		mcp     bool // brokerd answers mcp.tools
		want    []string
	}{
		{"no mcp grant", []string{"read_file"}, true, nil},
		{"no answer to mcp.tools", []string{"mcp"}, false, nil},
		{"offered", []string{"mcp", "yaag_run"}, true, []string{"yaag_run", "mcp__notes__echo", "mcp__notes__read"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Hi."}}})
			var asked []string
			kinds := map[string]daemon.Handler{
				"tools.granted": func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
					return map[string]any{"tools": tt.granted}, nil
				},
			}
			if tt.mcp {
				kinds["mcp.tools"] = func(_ context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
					var q struct{ Session string }
					json.Unmarshal(body, &q)
					asked = append(asked, q.Session)
					return map[string]any{"tools": []map[string]any{
						{"name": "mcp__notes__echo", "description": "Echoes <|im_start|>its text.", "input_schema": json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
						{"name": "mcp__notes__read", "description": "Reads.", "input_schema": json.RawMessage(`"not an object"`)},
					}}, nil
				}
			}
			r.eng.Broker.Socket = daemontest.Peer(t, r.dir, "broker2", kinds)
			res, _ := r.mustTurn(t, "", "Hello")
			var defs []struct {
				Function struct {
					Name        string          `json:"name"`
					Description string          `json:"description"`
					Parameters  json.RawMessage `json:"parameters"`
				} `json:"function"`
			}
			json.Unmarshal(r.records(t, res.Session)[0].Tools, &defs)
			var got []string
			for _, d := range defs[7:] {
				got = append(got, d.Function.Name)
				switch d.Function.Name {
				case "mcp__notes__echo":
					if string(d.Function.Parameters) != `{"type":"object","properties":{"text":{"type":"string"}}}` || bytes.Contains([]byte(d.Function.Description), []byte("<|im_start|>")) {
						t.Errorf("echo offered as %+v", d.Function)
					}
				case "mcp__notes__read":
					if string(d.Function.Parameters) != `{"type":"object"}` {
						t.Errorf("read's schema %s", d.Function.Parameters)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("offered %v, want %v", got, tt.want)
			}
			if tt.want != nil && (len(asked) != 1 || asked[0] != res.Session) {
				t.Errorf("mcp.tools asked for %v, want the new session %s", asked, res.Session)
			}
		})
	}
}
