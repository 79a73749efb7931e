package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/schema"
	"boxmaker/core/yaag/typebox"
)

// typeboxSchema builds a schema with the real TypeBox of the prelude and
// returns its JSON.
func typeboxSchema(t *testing.T, expr string) json.RawMessage {
	t.Helper()
	v, err := newVM(context.Background(), Options{}, "describe")
	if err != nil {
		t.Fatal(err)
	}
	defer v.close()
	if err := v.needTypebox(typebox.Global); err != nil {
		t.Fatal(err)
	}
	val, err := v.rt.RunString("(() => { const T = globalThis.__yaagTypebox; const Type = T.Type; return JSON.stringify(" + expr + "); })()")
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return json.RawMessage(val.String())
}

func TestEveryJSONTypeBoxConstructCompiles(t *testing.T) {
	tests := []struct {
		name, expr, good, bad string
	}{
		{"Object", `Type.Object({ a: Type.String(), b: Type.Number() })`, `{"a":"x","b":1}`, `{"a":1,"b":1}`},
		{"Optional", `Type.Object({ a: Type.Optional(Type.String()) })`, `{}`, `{"a":2}`},
		{"Array", `Type.Array(Type.Integer(), { minItems: 1 })`, `[1,2]`, `[]`},
		{"Record", `Type.Record(Type.String(), Type.Boolean())`, `{"x":true}`, `{"x":"no"}`},
		{"Union of Literals", `Type.Union([Type.Literal("a"), Type.Literal("b")])`, `"a"`, `"c"`},
		{"Null", `Type.Null()`, `null`, `0`},
		{"Tuple", `Type.Tuple([Type.String(), Type.Number()])`, `["a",1]`, `["a","b"]`},
		{"Enum", `Type.Enum({ A: "a", B: "b" })`, `"b"`, `"z"`},
		{"String format and pattern", `Type.String({ pattern: "^x+$", minLength: 2 })`, `"xx"`, `"x"`},
		{"Intersect", `Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })])`, `{"a":"1","b":"2"}`, `{"a":"1"}`},
		{"Cyclic", `Type.Cyclic({ Node: Type.Object({ next: Type.Union([Type.Ref("Node"), Type.Null()]) }) }, "Node")`, `{"next":{"next":null}}`, `{"next":{"next":1}}`},
		{"Unknown and Any", `Type.Object({ u: Type.Unknown(), a: Type.Any() })`, `{"u":1,"a":[]}`, `[]`},
		{"Boolean", `Type.Boolean()`, `true`, `"true"`},
		{"Integer bounds", `Type.Integer({ minimum: 0, maximum: 3 })`, `3`, `4`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := typeboxSchema(t, tt.expr)
			s, err := schema.Compile("the schema", raw)
			if err != nil {
				t.Fatalf("%s does not compile: %v", raw, err)
			}
			if err := s.Validate([]byte(tt.good)); err != nil {
				t.Errorf("%s refused %s: %v", raw, tt.good, err)
			}
			if err := s.Validate([]byte(tt.bad)); err == nil {
				t.Errorf("%s accepted %s", raw, tt.bad)
			}
		})
	}
}

func TestNonJSONTypeBoxConstructsAreRefused(t *testing.T) {
	for _, tt := range []struct{ expr, name string }{
		// TypeBox 1.x has no Date or Uint8Array builder; these are the
		// shapes 0.34 wrote, which a program can still make with Unsafe.
		{`Type.Unsafe({ type: "Date" })`, "Date"},
		{`Type.Unsafe({ type: "Uint8Array" })`, "Uint8Array"},
		{`Type.BigInt()`, "BigInt"},
		{`Type.Undefined()`, "Undefined"},
		{`Type.Symbol()`, "Symbol"},
		{`Type.Function([], Type.Void())`, "Function"},
		{`Type.Constructor([], Type.Object({}))`, "Constructor"},
		{`Type.Object({ when: Type.Unsafe({ type: "Date" }) })`, "Date"},
		{`Type.Array(Type.BigInt())`, "BigInt"},
		{`Type.Object({ a: Type.Optional(Type.Union([Type.String(), Type.Undefined()])) })`, "Undefined"},
	} {
		raw := typeboxSchema(t, tt.expr)
		_, err := schema.Compile("the outputSchema of ask A1/1", raw)
		if err == nil || !strings.Contains(err.Error(), "uses "+tt.name) || !strings.Contains(err.Error(), "JSON cannot represent") {
			t.Errorf("%s (%s): got %v", tt.expr, raw, err)
		}
	}
}

func TestAnAskWithANonJSONSchemaIsRefusedWhenMade(t *testing.T) {
	r := &recorder{}
	out, err := run(t, `
import { defineProgram } from "@yaag/runtime";
import { Type } from "typebox";
export default defineProgram({ name: "x", async run(ctx) {
  const a = await ctx.spawn({});
  try { await a.ask("when?", { outputSchema: Type.Object({ at: Type.BigInt() }) }); }
  catch (e) { return [e.code, e.message]; }
} });`, Options{Agents: r})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"SCHEMA_UNSUPPORTED"`) || !strings.Contains(out, "uses BigInt at /properties/at") {
		t.Fatalf("got %s", out)
	}
	if len(r.asks) != 0 {
		t.Fatalf("the Ask reached the Agent: %v", r.asks)
	}
	_ = runerr.SchemaUnsupported
}
