// Package sysprompt expands the render markers of a system prompt.
//
// yaagSystemPrompt() and each ctx.render*() of a program return a marker,
// ⟦yaag:<name>⟧, that stands for text only known when an Agent is spawned
// (its tools, the Run's input, the Profile). Markers are expanded inside a
// defineSystemPrompt(...) definition only: a marker in a plain
// systemPrompt string, or a marker of a name yaag does not know, stops the
// spawn before the Agent starts.
package sysprompt

import (
	"fmt"
	"regexp"
	"strings"

	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textPlainMarker   runbook.Quoted = "Render Sentinels are expanded inside a defineSystemPrompt definition only"
	textUnknownMarker runbook.Quoted = "holds an unknown render marker"
)

// Marker is the text that stands for name.
func Marker(name string) string { return "⟦yaag:" + name + "⟧" }

var markerRE = regexp.MustCompile(`⟦yaag:([^⟧]*)⟧`)

// Names are the markers yaag knows.
var Names = []string{"yaag", "tools", "input", "profile"}

// Prompt is an Agent's system prompt as the program gave it.
type Prompt struct {
	Text    string
	Defined bool // made by defineSystemPrompt
}

// Expand renders p for the Agent what (its name), with values for the
// known markers. The error names the Agent and the marker.
func Expand(what string, p Prompt, values map[string]string) (string, error) {
	found := markerRE.FindAllStringSubmatchIndex(p.Text, -1)
	if len(found) == 0 {
		return p.Text, nil
	}
	if !p.Defined {
		name := p.Text[found[0][2]:found[0][3]]
		return "", fmt.Errorf("the systemPrompt of %s holds the marker %s, but %s: wrap the text in defineSystemPrompt(...)",
			what, Marker(name), textPlainMarker)
	}
	var b strings.Builder
	last := 0
	for _, m := range found {
		name := p.Text[m[2]:m[3]]
		v, ok := values[name]
		if !ok {
			return "", fmt.Errorf("the systemPrompt of %s %s, %s (known: %s); write no marker by hand",
				what, textUnknownMarker, Marker(name), strings.Join(Names, ", "))
		}
		b.WriteString(p.Text[last:m[0]])
		b.WriteString(v)
		last = m[1]
	}
	b.WriteString(p.Text[last:])
	return b.String(), nil
}

// YaagText is what ⟦yaag:yaag⟧ expands to: how an Agent of a yaag program
// is asked and how its answer is read.
const YaagText = "You are an Agent of a yaag program: a program sends you prompts and reads your " +
	"last message of each as your answer. Use only the tools you are given; every call is decided " +
	"by your owner's grants, and a refused call is an answer to report, not to work around. " +
	"When a prompt asks for JSON, your last message is that JSON and nothing else."
