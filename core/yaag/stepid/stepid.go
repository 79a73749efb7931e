// Package stepid names the steps of a Run: an Agent by its spawn ordinal
// (A<k>) and an Ask by its ordinal within its Agent (A<k>/<n>), both given
// when the call is made, in program order; and hashes what each step
// asked, so that a later Run can tell the same step from an edited one.
//
// A hash is "sha256:" and the hex SHA-256 of a domain tag, a NUL, and the
// canonical JSON of the value (encoding/json of maps: keys sorted, no
// spaces). Budgets and time limits are never part of a hashed value:
// raising one is the fix for ASK_LIMIT and must not change a step.
package stepid

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// AgentKey is the key of the k-th spawn of a Run, from 1.
func AgentKey(k int) string { return fmt.Sprintf("A%d", k) }

// AskKey is the key of the n-th Ask of an Agent, from 1.
func AskKey(agent string, n int) string { return fmt.Sprintf("%s/%d", agent, n) }

// Hash is the step hash of v under a domain ("spawn", "ask").
func Hash(domain string, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("stepid: %s value cannot be encoded: %v", domain, err))
	}
	h := sha256.New()
	h.Write([]byte("yaag/" + domain + "\x00"))
	h.Write(data)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// FieldHashes is the hash of each field of a step's value, under the
// domain "<domain>.<field>": a replay that diverges names the field whose
// hash changed.
func FieldHashes(domain string, fields map[string]any) map[string]string {
	out := make(map[string]string, len(fields))
	for k, v := range fields {
		out[k] = Hash(domain+"."+k, v)
	}
	return out
}
