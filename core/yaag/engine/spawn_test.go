package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/testsupport"
	"boxmaker/core/yaag/catalog"
	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/sysprompt"
)

const profiledProgram = `
import { defineProgram, defineProfiled, defineAgent } from "@yaag/runtime";
const writer = defineProfiled("writer", (p) => defineAgent({ name: "writer", ...p.role("writer") }));
const sloppy = defineProfiled("sloppy", (p) => {
  let b = {};
  try { b = p.role("editor"); } catch (e) { /* swallowed */ }
  return defineAgent({ name: "sloppy", ...b });
});
export default defineProgram({
  name: "p",
  profiles: { fast: { roles: { writer: { model: "small", tools: ["read_file"] } } }, slow: { roles: { writer: { model: ["big", "small"] } } } },
  async run(ctx) {
    const which = ctx.input;
    try { const a = await ctx.spawn(which === "sloppy" ? sloppy : writer); return [ctx.profile, a.key]; }
    catch (e) { return [e.code, e.message]; }
  },
});`

func TestProfiles(t *testing.T) {
	tests := []struct {
		name, profile, origin, input string
		want                         []string // the result's parts, each contained
		models                       []string
	}{
		{name: "a Profile binds the Role", profile: "fast", input: `"writer"`, want: []string{`"fast"`, `"A1"`}, models: []string{"small"}},
		{name: "another Profile, another binding", profile: "slow", input: `"writer"`, want: []string{`"slow"`}, models: []string{"big", "small"}},
		{name: "no Profile chosen", input: `"writer"`, want: []string{"PROFILE_REQUIRED", "this Run has no Profile", "give --profile"}},
		{name: "an undeclared Role, even caught", profile: "fast", input: `"sloppy"`, want: []string{"ROLE_NOT_FOUND", `reads the Role \"editor\", which is not declared by this program's Profile \"fast\"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			out, err := run(t, profiledProgram, Options{Agents: r, Profile: tt.profile, ProfileOrigin: tt.origin, Input: json.RawMessage(tt.input)})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("result %s lacks %s", out, w)
				}
			}
			if tt.models != nil {
				if len(r.specs) != 1 || !cmp.Equal(r.specs[0].Models, tt.models) {
					t.Errorf("spawned %+v, want models %v", r.specs, tt.models)
				}
			} else if len(r.specs) != 0 {
				t.Errorf("an Agent was spawned: %+v", r.specs)
			}
		})
	}
}

func TestAProfileTheProgramDoesNotDeclareStopsTheRunAtTheStart(t *testing.T) {
	r := &recorder{}
	_, err := run(t, profiledProgram, Options{Agents: r, Profile: "medium", ProfileOrigin: "the config file /p/.yaag/config.toml", Input: json.RawMessage(`"writer"`)})
	if err == nil || !strings.Contains(err.Error(), `PROFILE_NOT_FOUND: the Profile "medium" (from the config file /p/.yaag/config.toml) is not declared by this program (it declares fast, slow)`) {
		t.Fatalf("got %v", err)
	}
	_, err = run(t, `
import { defineProgram, defineProfiled, defineAgent } from "@yaag/runtime";
const w = defineProfiled("w", (p) => defineAgent({ name: "w", ...p.role("w") }));
export default defineProgram({ name: "x", async run(ctx) { await ctx.spawn(w); } });`, Options{Agents: r})
	if err == nil || !strings.Contains(err.Error(), "PROFILE_REQUIRED") || !strings.Contains(err.Error(), "this program declares no Profiles") {
		t.Fatalf("no profiles: %v", err)
	}
}

func spawnWith(t *testing.T, options string) (*recorder, string, error) {
	t.Helper()
	r := &recorder{}
	out, err := run(t, `
import { defineProgram, defineSystemPrompt, yaagSystemPrompt } from "@yaag/runtime";
export default defineProgram({ name: "x", input: undefined, async run(ctx) {
  const a = await ctx.spawn(`+options+`);
  return a.key;
} });`, Options{Agents: r, Input: json.RawMessage(`{"task":"t"}`)})
	return r, out, err
}

func TestToolFlags(t *testing.T) {
	r, _, err := spawnWith(t, `{ canAskUser: true }`)
	if err != nil || !cmp.Equal(r.specs[0].Tools, []string{"request_user_input"}) {
		t.Fatalf("canAskUser without tools: %v %+v", err, r.specs)
	}
	r, _, err = spawnWith(t, `{ tools: ["read_file", "write_file", "list_dir"], disallowedTools: ["write_file"] }`)
	if err != nil || !cmp.Equal(r.specs[0].Tools, []string{"read_file", "list_dir"}) {
		t.Fatalf("tools minus disallowedTools: %v %+v", err, r.specs)
	}
	for opts, want := range map[string]string{
		`{ canAskUser: true, disallowedTools: ["request_user_input"] }`: "canAskUser needs the tool request_user_input, and disallowedTools denies it",
		`{ canAskUser: true, tools: ["read_file"] }`:                    "canAskUser needs the tool request_user_input, and the tools allowlist omits it",
	} {
		r, _, err := spawnWith(t, opts)
		if err == nil || !strings.Contains(err.Error(), "SPAWN_FAILED") || !strings.Contains(err.Error(), want) || len(r.specs) != 0 {
			t.Errorf("%s: %v (spawned %d)", opts, err, len(r.specs))
		}
	}
}

func TestSystemPromptMarkers(t *testing.T) {
	r, _, err := spawnWith(t, `{ name: "w", tools: ["read_file"], systemPrompt: defineSystemPrompt(yaagSystemPrompt(), "\nTools: ", ctx.renderTools(), "\nInput: ", ctx.renderInput()) }`)
	if err != nil {
		t.Fatal(err)
	}
	want := sysprompt.YaagText + "\nTools: Your tools: read_file.\nInput: {\"task\":\"t\"}"
	if got := r.specs[0].System; got != want {
		t.Errorf("system prompt\n%q\nwant\n%q", got, want)
	}
	for opts, want := range map[string]string{
		`{ systemPrompt: "Be brief. " + yaagSystemPrompt() }`:       "Render Sentinels are expanded inside a defineSystemPrompt definition only",
		`{ systemPrompt: defineSystemPrompt("Hi ⟦yaag:secrets⟧") }`: "holds an unknown render marker, ⟦yaag:secrets⟧",
		`{ systemPrompt: "Input: " + ctx.renderInput() }`:           "holds the marker ⟦yaag:input⟧",
	} {
		r, _, err := spawnWith(t, opts)
		if err == nil || !strings.Contains(err.Error(), "SPAWN_FAILED") || !strings.Contains(err.Error(), want) || len(r.specs) != 0 {
			t.Errorf("%s: %v (spawned %d)", opts, err, len(r.specs))
		}
	}
}

func TestUnknownSpawnOptionsAreRefused(t *testing.T) {
	_, _, err := spawnWith(t, `{ tool: ["read_file"] }`)
	if err == nil || !strings.Contains(err.Error(), `unknown field "tool"`) {
		t.Fatalf("got %v", err)
	}
}

func TestHashesLeaveBudgetsOut(t *testing.T) {
	hashes := func(askOpts string) (spawn, ask string) {
		var events []Event
		_, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "x", async run(ctx) {
  const a = await ctx.spawn({ name: "w", tools: ["read_file"] });
  await a.ask("Review it.", `+askOpts+`);
} });`, Options{Agents: &recorder{}, Events: func(e Event) { events = append(events, e) }})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			switch e.Event {
			case "spawn":
				spawn = e.Hash
			case "ask":
				ask = e.Hash
			}
		}
		return spawn, ask
	}
	s1, a1 := hashes(`{ maxTurns: 2, timeoutMs: 1000 }`)
	s2, a2 := hashes(`{ maxTurns: 20, maxToolCalls: 9, maxDurationMs: 5, stallMs: 7 }`)
	s3, a3 := hashes(`{ maxTurns: 2, wrapUpPrompt: "Sum up." }`)
	if s1 == "" || s1 != s2 || a1 != a2 {
		t.Errorf("budgets changed the hashes: %s %s / %s %s", s1, a1, s2, a2)
	}
	if a3 == a1 || s3 != s1 {
		t.Errorf("a wrap-up prompt must change the ask's hash and not the spawn's")
	}
}

// catalogTree is a Program Directory with a project Registry File.
func catalogTree(t *testing.T, registry string, files map[string]string) (string, catalog.Catalog) {
	t.Helper()
	dir := t.TempDir()
	files[".yaag/registry.toml"] = registry
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, catalog.Catalog{Files: map[string]string{"project": filepath.Join(dir, ".yaag/registry.toml"), "global": filepath.Join(dir, "global.toml")}}
}

const importingProgram = `
import { defineProgram } from "@yaag/runtime";
let imported, failure;
try { imported = await $yaag.%SCOPE%.importAgent("%NAME%"); } catch (e) { failure = { code: e.code, message: e.message, cause: e.cause && e.cause.message }; }
export default defineProgram({ name: "imports", async run(ctx) {
  if (failure) return failure;
  const a = await ctx.spawn(imported);
  return { key: a.key, name: a.name };
} });`

func TestCatalog(t *testing.T) {
	reviewer := "import { defineAgent } from '@yaag/runtime';\nconst ready = await Promise.resolve(true);\nexport const reviewer = defineAgent({ name: 'reviewer', tools: ['read_file'] });\nexport const notAnAgent = { name: 'x' };\n"
	registry := `
[[agents]]
name = "reviewer"
file = "agents/reviewer.ts"
exportName = "reviewer"

[[agents]]
name = "twice"
file = "a.ts"

[[agents]]
name = "twice"
file = "b.ts"

[[agents]]
name = "gone"
file = "agents/missing.ts"

[[agents]]
name = "throws"
file = "agents/throws.ts"

[[agents]]
name = "no-export"
file = "agents/reviewer.ts"
exportName = "writer"

[[agents]]
name = "not-an-agent"
file = "agents/reviewer.ts"
exportName = "notAnAgent"
`
	dir, cat := catalogTree(t, registry, map[string]string{
		"agents/reviewer.ts": reviewer,
		"agents/throws.ts":   "throw new Error('cannot load');\nexport default 1;\n",
	})
	tests := []struct {
		scope, name string
		want        []string
	}{
		{"project", "reviewer", []string{`"key":"A1"`, `"name":"reviewer"`}},
		{"project", "nobody", []string{"CATALOG_ENTRY_NOT_FOUND", "no agent entry has this name in " + filepath.Join(dir, ".yaag/registry.toml")}},
		{"global", "reviewer", []string{"CATALOG_ENTRY_NOT_FOUND", "global.toml (the file does not exist)"}},
		{"project", "twice", []string{"CATALOG_ENTRY_AMBIGUOUS", "2 agent entries have this name in", "their files: a.ts, b.ts"}},
		{"project", "gone", []string{"CATALOG_ENTRY_UNRESOLVABLE", "did not resolve:", `"cause":`}},
		{"project", "throws", []string{"CATALOG_ENTRY_UNRESOLVABLE", "cannot load"}},
		{"project", "no-export", []string{"CATALOG_ENTRY_UNRESOLVABLE", `has no export \"writer\"`}},
		{"project", "not-an-agent", []string{"CATALOG_ENTRY_UNRESOLVABLE", "is not an Agent Definition or a Profiled Definition"}},
	}
	for _, tt := range tests {
		t.Run(tt.scope+" "+tt.name, func(t *testing.T) {
			src := strings.NewReplacer("%SCOPE%", tt.scope, "%NAME%", tt.name).Replace(importingProgram)
			path := filepath.Join(dir, "program.ts")
			os.WriteFile(path, []byte(src), 0o644)
			b, err := program.File(path)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Run(context.Background(), Options{Bundle: b, Run: "r", Agents: &recorder{}, Catalog: cat})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("%s lacks %s", out, w)
				}
			}
		})
	}
}

func TestDescribeRunsTheTopLevelButNotRun(t *testing.T) {
	dir, cat := catalogTree(t, "[[agents]]\nname = \"reviewer\"\nfile = \"r.ts\"\n", map[string]string{
		"r.ts": "import { defineAgent } from '@yaag/runtime';\nexport default defineAgent({ name: 'reviewer', description: 'reads', tools: ['read_file'], model: ['a', 'b'] });\n",
		"program.ts": `
import { defineProgram, defineProfiled, defineAgent } from "@yaag/runtime";
import { Type } from "typebox";
export const reviewer = await $yaag.project.importAgent("reviewer");
export const writer = defineProfiled("writer", (p) => defineAgent({ name: "writer", ...p.role("writer") }));
let spawnAtTop = "not tried";
try { await globalThis.__yaagHost.spawn({}); } catch (e) { spawnAtTop = e.code; }
export const tried = spawnAtTop;
export default defineProgram({
  name: "review", description: "reviews a file",
  input: Type.Object({ path: Type.String() }), output: Type.Object({ ok: Type.Boolean() }),
  profiles: { fast: { roles: { writer: { model: "small" } } } }, defaultProfile: "fast",
  async run() { throw new Error("run was called"); },
});
export const other = defineProgram({ name: "other", async run() {} });`,
	})
	b, err := program.File(filepath.Join(dir, "program.ts"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Describe(context.Background(), Options{Bundle: b, Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(d)
	testsupport.ContainsAll(t, "the description", string(got), `"name":"review"`, `"description":"reviews a file"`, `"input":{"type":"object"`, `"output":{"type":"object"`,
		`{"name":"reviewer","description":"reads","tools":["read_file"],"model":["a","b"]}`, `{"name":"writer","profiled":true}`,
		`"profiles":{"fast":{"roles":{"writer":{"model":"small"}}}}`, `"defaultProfile":"fast"`)
	d, err = Describe(context.Background(), Options{Bundle: b, Catalog: cat, Export: "other"})
	if err != nil || d.Name != "other" {
		t.Fatalf("--export other: %+v %v", d, err)
	}
	if _, err := Describe(context.Background(), Options{Bundle: b, Catalog: cat, Export: "tried"}); err == nil || !strings.Contains(err.Error(), `the export "tried" of`) {
		t.Fatalf("an export that is not a program: %v", err)
	}
	// The spawn tried at the top level was refused.
	v, _ := newVM(context.Background(), Options{Bundle: b, Catalog: cat}, "describe")
	exports, err := v.evaluate()
	if err != nil || exports.Get("tried").String() != "DESCRIBE_ONLY" {
		t.Fatalf("the top-level spawn: %v %v", exports.Get("tried"), err)
	}
}
