package llamaserver

import (
	"strings"
	"unicode/utf8"
)

// The tokenizer is deterministic and byte-level: every byte of plain text
// is one token whose id is the byte's value (0-255), and, when special
// tokens are parsed, each tag of the table is one token with its id. Ids
// of plain text can therefore never be a tag's id, and the same text
// always gives the same tokens, which is what a prefix cache and loopd's
// tag check need. Real tokenizers merge bytes into larger pieces; the
// counts differ, the shapes of the answers do not.

// Tokenize splits text into token ids. With parseSpecial, the text of a
// tag becomes the tag's token; without, it is plain text like any other.
func Tokenize(text string, parseSpecial bool) []int {
	out := make([]int, 0, len(text))
	for i := 0; i < len(text); {
		if parseSpecial && text[i] == '<' {
			if t, ok := tagAt(text[i:]); ok {
				out = append(out, t.ID)
				i += len(t.Text())
				continue
			}
		}
		out = append(out, int(text[i]))
		i++
	}
	return out
}

// tagAt reports the tag s starts with.
func tagAt(s string) (Tag, bool) {
	for _, t := range tagTable {
		if strings.HasPrefix(s, t.Text()) {
			return t, true
		}
	}
	return Tag{}, false
}

// PieceOf is the text of one token: a tag's text, or one byte.
func PieceOf(id int) ([]byte, bool) {
	if id >= 0 && id < 256 {
		return []byte{byte(id)}, true
	}
	if i := id - qwen35Base; i >= 0 && i < len(tagTable) {
		return []byte(tagTable[i].Text()), true
	}
	return nil, false
}

// Detokenize turns ids back into text; ids the vocabulary lacks are
// skipped, as llama.cpp skips them.
func Detokenize(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if p, ok := PieceOf(id); ok {
			b.Write(p)
		}
	}
	return b.String()
}

// pieceJSON is a piece as /tokenize's with_pieces shows it: a string when
// it is valid UTF-8, else the list of its bytes.
func pieceJSON(p []byte) any {
	if utf8.Valid(p) {
		return string(p)
	}
	out := make([]int, len(p))
	for i, b := range p {
		out[i] = int(b)
	}
	return out
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []int) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
