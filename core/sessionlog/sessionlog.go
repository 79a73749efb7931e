// Package sessionlog is what loopd's session logs share with the code
// that reads them: how an epoch's log is named, the record types, and the
// part of a record a reader of the conversation's text takes. core/loop
// writes the logs and reads them whole (its package doc is the format's
// reference: $BOXMAKER_HOME/sessions/<id>/<epoch>.jsonl, one record per
// line); core/recall indexes their text and core/honchosync sends it to
// Honcho, each with these definitions rather than a copy of its own.
package sessionlog

import "strconv"

// The record types.
const (
	TypeBaseline  = "baseline"
	TypeUser      = "user"
	TypeAssistant = "assistant"
	TypeTool      = "tool"
	TypeNote      = "note"
)

// ext ends the name of every epoch's log.
const ext = ".jsonl"

// maxEpochDigits is the most digits an epoch's name has: every such
// number fits an int64.
const maxEpochDigits = 18

// FileName is the name of an epoch's log in its session's directory.
func FileName(epoch int) string { return strconv.Itoa(epoch) + ext }

// Epoch is the epoch a log's file name says: a decimal integer from 0,
// with no sign or leading zero and at most 18 digits, then ".jsonl". ok is
// false for any other name, which is no log.
func Epoch(name string) (epoch int64, ok bool) {
	digits := name[:max(0, len(name)-len(ext))]
	if len(name) <= len(ext) || name[len(digits):] != ext || len(digits) > maxEpochDigits ||
		len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// TextRecord is what a reader of a log's text takes of a record; the
// fields of its type it does not read are left out.
type TextRecord struct {
	Seq  int64  `json:"seq"`
	Time string `json:"time"`
	Type string `json:"type"`
	Text string `json:"text"`
	Name string `json:"name,omitempty"` // a tool record's tool
}
