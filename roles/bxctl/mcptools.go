package bxctl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/mcp"
	"boxmaker/core/mcpconf"
	"boxmaker/core/mcppin"
	"boxmaker/core/runner"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// mcpToolsCommands are `bxctl mcp tools` and `bxctl mcp accept`: they
// start the server in the tools' lockdown (core/runner.MCPCommand), list
// its tools, and stop it.
func mcpToolsCommands() []*cli.Command {
	return []*cli.Command{{
		Name:      "tools",
		Usage:     "start an MCP server in its container, show its tools, and say whether they are the ones accepted",
		ArgsUsage: "SERVER",
		Description: "tools starts SERVER's image in the tools' lockdown (no network, nothing\n" +
			"mounted, no secrets), lists its tools, stops it, and prints each tool\n" +
			"with its description, the sanitizer's flags on it, and the list's pin.\n" +
			"Exit status 0 when the list is the one accepted (bxctl mcp accept);\n" +
			"1 when it is withheld: never accepted, or changed since.",
		Flags: []cli.Flag{rolecli.JSONFlag},
		Action: func(c *cli.Context) error {
			args, err := rolecli.ArgsAndLateFlags(c)
			if err != nil {
				return err
			}
			if len(args) != 1 {
				return rolecli.Usagef("mcp tools takes SERVER (see bxctl mcp tools --help)")
			}
			return mcpTools(c, args[0])
		},
	}, {
		Name:      "accept",
		Usage:     "accept the tool list of an MCP server that bxctl mcp tools showed",
		ArgsUsage: "SERVER PIN",
		Description: "accept lists SERVER's tools again and, when the list's pin is PIN (as\n" +
			"bxctl mcp tools printed it after you read the list), records it as\n" +
			"accepted in the home, with the server's image and command. A list that\n" +
			"is no longer PIN is not accepted: read it again.",
		Action: func(c *cli.Context) error {
			args, err := rolecli.ArgsAndLateFlags(c)
			if err != nil {
				return err
			}
			if len(args) != 2 {
				return rolecli.Usagef("mcp accept takes SERVER and PIN (see bxctl mcp accept --help)")
			}
			return mcpAccept(c, args[0], args[1])
		},
	}}
}

// listed is one listing of a server's tools.
type listed struct {
	cfg      conf.Brokerd
	server   mcpconf.Server
	protocol string
	list     mcp.ToolList
}

// listServer starts the server named name in its container and lists
// its tools.
func listServer(c *cli.Context, name string) (listed, error) {
	var cfg conf.Brokerd
	path, err := brokerConfig.load(c, &cfg)
	if err != nil {
		return listed{}, err
	}
	dir, harness, err := mcpDir(c)
	if err != nil {
		return listed{}, err
	}
	s, err := mcpconf.Load(dir, harness...).Server(name)
	if err != nil {
		return listed{}, err
	}
	rcfg := runner.ConfigFrom(cfg, runner.Instance(cfg.Home))
	// The tools' profile, written where brokerd's is but under a name of
	// its own, so that the two never write one file.
	rcfg.SeccompProfile = filepath.Join(cfg.Home, "run", "bxctl-mcp-seccomp.json")
	run, err := runner.New(rcfg)
	if err != nil {
		return listed{}, fmt.Errorf("%s: %v", path, err)
	}
	var b [4]byte
	rand.Read(b[:])
	container := run.ContainerName("mcp-" + name + "-" + hex.EncodeToString(b[:]))
	env := make([]string, 0, len(s.Env))
	for k, v := range s.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	cmd, err := run.MCPCommand(container, s.Image, s.Command, env)
	if err != nil {
		return listed{}, err
	}
	defer run.RemoveContainer(container)
	ctx, cancel := context.WithTimeout(c.Context, runner.MCPListTimeout)
	defer cancel()
	sess, err := mcp.Connect(ctx, cmd, mcp.Options{})
	if err != nil {
		return listed{}, err
	}
	defer sess.Close()
	l, err := sess.Tools(ctx)
	if err != nil {
		return listed{}, fmt.Errorf("the MCP server %s: %v", name, err)
	}
	return listed{cfg: cfg, server: s, protocol: sess.Protocol(), list: l}, nil
}

// mcpToolsJSON is mcp tools --json (docs/json.md).
type mcpToolsJSON struct {
	Server   string        `json:"server"`
	Image    string        `json:"image"`
	Command  []string      `json:"command"`
	Protocol string        `json:"protocol"`
	Pin      string        `json:"pin"`
	Tools    []mcpToolJSON `json:"tools"`
	Accepted bool          `json:"accepted"`
	Withheld string        `json:"withheld,omitempty"`
	Added    []string      `json:"added"`
	Removed  []string      `json:"removed"`
	Changed  []string      `json:"changed"`
}

type mcpToolJSON struct {
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description"`
	Hash        string   `json:"hash"`
	Flags       []string `json:"flags"`
}

func mcpTools(c *cli.Context, name string) error {
	l, err := listServer(c, name)
	if err != nil {
		return err
	}
	acc, ok, err := mcppin.Load(l.cfg.Home, name)
	if err != nil {
		return err
	}
	var accepted *mcppin.Acceptance
	if ok {
		accepted = &acc
	}
	pin, hashes := l.list.Hashes()
	v := mcppin.Judge(accepted, l.server, mcppin.Listed{Hash: pin, Tools: hashes})
	if why, drifted := mcppin.Drift(l.cfg.Home, name); drifted && v.Withheld == "" {
		// brokerd saw a running server list other tools (a rug pull
		// after acceptance): the owner accepts again to clear it.
		v.Withheld = why
	}
	w := c.App.Writer
	if rolecli.WantsJSON(c) {
		out := mcpToolsJSON{Server: name, Image: l.server.Image, Command: l.server.Command, Protocol: l.protocol, Pin: pin,
			Tools: []mcpToolJSON{}, Accepted: v.Withheld == "", Withheld: v.Withheld,
			Added: nonNil(v.Added), Removed: nonNil(v.Removed), Changed: nonNil(v.Changed)}
		for _, t := range l.list.Tools {
			tj := mcpToolJSON{Name: t.Name, Title: t.Title, Description: t.Description, Hash: t.Hash, Flags: []string{}}
			for _, f := range t.Flags() {
				tj.Flags = append(tj.Flags, f.Rule)
			}
			out.Tools = append(out.Tools, tj)
		}
		if err := rolecli.WriteJSON(w, out); err != nil {
			return err
		}
	} else {
		writeTools(w, name, l, pin, v)
	}
	if v.Withheld != "" {
		return runbook.Refuse(runbook.MCPToolsWithheld, "the tools of the MCP server %s are withheld: %s", name, v.Withheld)
	}
	return nil
}

func writeTools(w io.Writer, name string, l listed, pin string, v mcppin.Verdict) {
	fmt.Fprintf(w, "server: %s\n", name)
	fmt.Fprintf(w, "image: %s\n", l.server.Image)
	fmt.Fprintf(w, "command: %s\n", termsafe.Line(strings.Join(l.server.Command, " ")))
	fmt.Fprintf(w, "protocol: %s\n", termsafe.Line(l.protocol))
	fmt.Fprintf(w, "tools: %d\n", len(l.list.Tools))
	for _, t := range l.list.Tools {
		fmt.Fprintf(w, "tool %s %s\n", termsafe.Line(mcp.Visible(t.Name)), t.Hash)
		if t.Title != "" {
			fmt.Fprintf(w, "  title: %s\n", termsafe.Line(mcp.Visible(t.Title)))
		}
		fmt.Fprintf(w, "  description: %s\n", termsafe.Line(mcp.Visible(t.Description)))
		fmt.Fprintf(w, "  input: %s\n", termsafe.Line(mcp.Visible(string(t.InputSchema))))
		for _, f := range t.Flags() {
			fmt.Fprintf(w, "  FLAGGED %s: %s\n", f.Rule, f.Reason)
		}
	}
	fmt.Fprintf(w, "pin: %s\n", pin)
	if v.Withheld == "" {
		fmt.Fprintln(w, "accepted: this is the list accepted; grants decide each call")
		return
	}
	fmt.Fprintf(w, "withheld: %s\n", v.Withheld)
	for _, d := range []struct {
		what  string
		names []string
	}{{"new", v.Added}, {"removed", v.Removed}, {"changed", v.Changed}} {
		if len(d.names) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", d.what, termsafe.Line(strings.Join(d.names, ", ")))
		}
	}
	fmt.Fprintf(w, "to accept this list once you have read it: bxctl mcp accept %s %s\n", name, pin)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func mcpAccept(c *cli.Context, name, want string) error {
	l, err := listServer(c, name)
	if err != nil {
		return err
	}
	pin, _ := l.list.Hashes()
	if pin != want {
		return rolecli.WithHint(fmt.Errorf("the tool list of the MCP server %s is now %s, not %s: nothing was accepted", name, pin, termsafe.Line(want)),
			fmt.Sprintf("read the list again with bxctl mcp tools %s", name))
	}
	if err := mcppin.Save(l.cfg.Home, mcppin.Accept(l.server, l.list.Listed())); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "accepted: %d tools of %s, pin %s\n", len(l.list.Tools), name, pin)
	return nil
}
