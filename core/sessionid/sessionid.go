// Package sessionid is the rule for the ids that name a session and a
// tool call everywhere they go: in file names (sessions/<id>/,
// broker/sessions/<id>.json), container names (<session>_<call id>), audit
// records, Honcho and every socket's messages. It is written here once;
// every package that takes an id from outside checks it with Valid or
// ValidCall.
//
// A session id is 1 to 64 of [a-z0-9-]: no "_", so "<session>_<call id>"
// reads back unambiguously, and no "." or "/", so it is a file name. A call
// id is 1 to 64 of [A-Za-z0-9_-]: the model server's ids (32 letters and
// digits) and loopd's own (call-<seq>-<n>) both fit.
package sessionid

import (
	"fmt"
	"regexp"
)

// The length is checked apart from the expressions: `{1,64}` compiles to
// 64 copies of the class, which every role's process start paid for
// (package init).
var (
	sessionRE = regexp.MustCompile(`^[a-z0-9-]+$`)
	callRE    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

const maxLen = 64

// Valid reports whether id is a session id.
func Valid(id string) bool { return len(id) <= maxLen && sessionRE.MatchString(id) }

// ValidCall reports whether id is a call id.
func ValidCall(id string) bool { return len(id) <= maxLen && callRE.MatchString(id) }

// Check is Valid as an error that says the rule.
func Check(id string) error {
	if !Valid(id) {
		return fmt.Errorf("the session id %q is not 1 to 64 of [a-z0-9-]", id)
	}
	return nil
}

// CheckCall is ValidCall as an error that says the rule.
func CheckCall(id string) error {
	if !ValidCall(id) {
		return fmt.Errorf("the call id %q is not 1 to 64 of [A-Za-z0-9_-]", id)
	}
	return nil
}
