package bxctl

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/mcpconf"
	"boxmaker/core/policy"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// mcpCommands are `bxctl mcp ...`: the MCP servers the owner declares
// (docs/mcp.md). They read the MCP servers directory themselves, so they
// work whether brokerd runs or not.
func mcpCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "mcp",
		Usage: "check the MCP servers the owner declares, show and accept their tools",
		Subcommands: append([]*cli.Command{{
			Name:  "check",
			Usage: "report every problem of the MCP server files",
			Description: "check reads every file of the MCP servers directory ([paths] mcp in\n" +
				"brokerd.toml, by default \"mcp\" beside the grants directory) and prints\n" +
				"\"mcp: ok\" with the servers declared, or every problem as\n" +
				"<file>:<line>: <problem> and exits 1. A server whose file has a problem\n" +
				"is unavailable; the other servers are not affected.",
			Flags: []cli.Flag{rolecli.JSONFlag},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				dir, harness, err := mcpDir(c)
				if err != nil {
					return err
				}
				return mcpCheck(c.App.Writer, dir, harness, rolecli.WantsJSON(c))
			}),
		}}, mcpToolsCommands()...),
	}}
}

// mcpDir is the MCP servers directory of brokerd's configuration, and the
// harness's directories no server may be given.
func mcpDir(c *cli.Context) (string, []policy.Harness, error) {
	var cfg conf.Brokerd
	path, err := brokerConfig.load(c, &cfg)
	if err != nil {
		return "", nil, err
	}
	dir := cfg.Paths.MCPDir()
	switch {
	case dir == "":
		return "", nil, fmt.Errorf("%s names neither an MCP servers directory ([paths] mcp) nor a grants directory beside which it lies", path)
	case !filepath.IsAbs(dir):
		return "", nil, fmt.Errorf("%s: the MCP servers directory %q is not an absolute path", path, dir)
	}
	return dir, policy.BrokerdHarness(cfg, path), nil
}

// mcpCheckJSON is mcp check --json (docs/json.md).
type mcpCheckJSON struct {
	OK       bool          `json:"ok"`
	Dir      string        `json:"dir"`
	Servers  []string      `json:"servers"`
	Invalid  []string      `json:"invalid"`
	Problems []problemJSON `json:"problems"`
}

func mcpCheck(w io.Writer, dir string, harness []policy.Harness, asJSON bool) error {
	rep := mcpconf.Load(dir, harness...)
	servers, invalid := sortedNames(rep.Servers), sortedNames(rep.Invalid)
	failed := len(rep.Problems) > 0
	if asJSON {
		if err := rolecli.WriteJSON(w, mcpCheckJSON{OK: !failed, Dir: dir, Servers: servers, Invalid: invalid,
			Problems: problemsJSON(rep.Problems)}); err != nil {
			return err
		}
	} else {
		for _, p := range rep.Problems {
			fmt.Fprintln(w, termsafe.Line(p.String()))
		}
		if !failed {
			switch {
			case rep.Missing:
				fmt.Fprintf(w, "mcp: ok, no servers (%s does not exist)\n", termsafe.Line(dir))
			case len(servers) == 0:
				fmt.Fprintln(w, "mcp: ok, no servers")
			default:
				fmt.Fprintf(w, "mcp: ok, %d %s: %s\n", len(servers), plural(len(servers), "server", "servers"), joinNames(servers))
			}
		}
	}
	if failed {
		if len(invalid) == 0 {
			return runbook.Refuse(runbook.MCPServerInvalid, "the MCP servers directory holds what is not a server file")
		}
		return runbook.Refuse(runbook.MCPServerInvalid, "%s unavailable: %s", plural(len(invalid), "this MCP server is", "these MCP servers are"), joinNames(invalid))
	}
	return nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
