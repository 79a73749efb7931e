package llamastandin

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
// It is the tokenizer no switch has changed.
func Tokenize(text string, parseSpecial bool) []int {
	return vocab{}.tokenize(text, parseSpecial)
}

// vocab is the tokenizer as the switches leave it: the model file it
// stands for may give a tag another id (moved), and a tokenizer may read
// an HTML-escaped spelling of a tag, &lt;|im_end|&gt;, as the tag
// (entities). The zero value is the recorded Qwen3.5 tokenizer.
type vocab struct {
	moved    map[string]int // tag text -> its id in this model file
	entities bool
}

func (v vocab) id(t Tag) int {
	if id, ok := v.moved[t.Text()]; ok {
		return id
	}
	return t.TokenID
}

func (v vocab) tokenize(text string, parseSpecial bool) []int {
	out := make([]int, 0, len(text))
	for i := 0; i < len(text); {
		if parseSpecial && text[i] == '<' {
			if t, ok := tagAt(text[i:]); ok {
				out = append(out, v.id(t))
				i += len(t.Text())
				continue
			}
		}
		if parseSpecial && v.entities && text[i] == '&' {
			if t, n, ok := escapedTagAt(text[i:]); ok {
				out = append(out, v.id(t))
				i += n
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

// escapedTagAt reports the tag whose spelling with &lt; and &gt; for its
// angle brackets s starts with, and that spelling's length.
func escapedTagAt(s string) (Tag, int, bool) {
	if !strings.HasPrefix(s, "&lt;") {
		return Tag{}, 0, false
	}
	for _, t := range tagTable {
		text := t.Text()
		esc := "&lt;" + text[1:len(text)-1] + "&gt;"
		if strings.HasPrefix(s, esc) {
			return t, len(esc), true
		}
	}
	return Tag{}, 0, false
}

// PieceOf is the text of one token: a tag's text, or one byte.
func PieceOf(id int) ([]byte, bool) { return vocab{}.piece(id) }

func (v vocab) piece(id int) ([]byte, bool) {
	for text, moved := range v.moved {
		if moved == id {
			return []byte(text), true
		}
	}
	if id >= 0 && id < 256 {
		return []byte{byte(id)}, true
	}
	if i := id - qwen35Base; i >= 0 && i < len(tagTable) {
		if _, gone := v.moved[tagTable[i].Text()]; !gone {
			return []byte(tagTable[i].Text()), true
		}
	}
	return nil, false
}

// Detokenize turns ids back into text; ids the vocabulary lacks are
// skipped, as llama.cpp skips them.
func Detokenize(ids []int) string { return vocab{}.detokenize(ids) }

func (v vocab) detokenize(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if p, ok := v.piece(id); ok {
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
