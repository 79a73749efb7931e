package sanitize

import "strings"

// TagKind is the spelling of a chat-template tag.
type TagKind int

const (
	// Bar is a tag written <|name|>.
	Bar TagKind = iota
	// Open is a tag written <name>.
	Open
	// Close is a tag written </name>.
	Close
)

// Tag is one chat-template tag of the model's tokenizer and the token id
// the tokenizer gives it.
type Tag struct {
	Name    string
	Kind    TagKind
	TokenID int
}

// Text is the tag as the tokenizer reads it: <|name|>, <name> or </name>.
func (t Tag) Text() string {
	switch t.Kind {
	case Open:
		return "<" + t.Name + ">"
	case Close:
		return "</" + t.Name + ">"
	default:
		return "<" + "|" + t.Name + "|" + ">"
	}
}

// Neutralised is the tag with its angle brackets written as &lt; and &gt;,
// as Neutralise writes it.
func (t Tag) Neutralised() string {
	s := t.Text()
	return "&lt;" + s[1:len(s)-1] + "&gt;"
}

// qwen3Base is the id of the endoftext tag in the Qwen3 tokenizer; qwen35Base
// is its id in the Qwen3.5 family. The special tokens that follow keep the
// same order and spacing in both, so each id below is qwen35Base plus the
// token's Qwen3 offset.
//
// Source (checked before this table was written; tags named here without
// their brackets so that this file holds none whole): the Qwen3 layout is
// the added_tokens_decoder of Qwen3's tokenizer_config.json (151643
// endoftext ... 151668 /think; also torchtune's QWEN3_SPECIAL_TOKENS); for
// Qwen3.5, public inference code gives im_start=248045, im_end=248046,
// end-of-generation ids 248044 (endoftext) and 248063-248065 (fim_pad,
// repo_name, file_sep), and think=248068, /think=248069: every one of them
// its Qwen3 id + 96401. loopd's selftest asks the server's /tokenize about
// each tag, so a table that no longer matches the model stops loopd.
const (
	qwen3Base  = 151643
	qwen35Base = 248044
)

// qwen3Layout is the Qwen3 special tokens in id order from qwen3Base.
var qwen3Layout = []struct {
	name string
	kind TagKind
}{
	{"endoftext", Bar},        // 151643
	{"im_start", Bar},         // 151644
	{"im_end", Bar},           // 151645
	{"object_ref_start", Bar}, // 151646
	{"object_ref_end", Bar},   // 151647
	{"box_start", Bar},        // 151648
	{"box_end", Bar},          // 151649
	{"quad_start", Bar},       // 151650
	{"quad_end", Bar},         // 151651
	{"vision_start", Bar},     // 151652
	{"vision_end", Bar},       // 151653
	{"vision_pad", Bar},       // 151654
	{"image_pad", Bar},        // 151655
	{"video_pad", Bar},        // 151656
	{"tool_call", Open},       // 151657
	{"tool_call", Close},      // 151658
	{"fim_prefix", Bar},       // 151659
	{"fim_middle", Bar},       // 151660
	{"fim_suffix", Bar},       // 151661
	{"fim_pad", Bar},          // 151662
	{"repo_name", Bar},        // 151663
	{"file_sep", Bar},         // 151664
	{"tool_response", Open},   // 151665
	{"tool_response", Close},  // 151666
	{"think", Open},           // 151667
	{"think", Close},          // 151668
}

var tagTable = func() []Tag {
	out := make([]Tag, len(qwen3Layout))
	for i, e := range qwen3Layout {
		out[i] = Tag{Name: e.name, Kind: e.kind, TokenID: qwen35Base + i}
	}
	return out
}()

// Tags is the chat-template tag table of the Qwen3.5 tokenizer family, in
// token id order. The slice is a copy; changing it changes nothing here.
func Tags() []Tag { return append([]Tag(nil), tagTable...) }

// Neutralise writes the angle brackets of every chat-template tag in text
// as &lt; and &gt;, and leaves everything else as it is. It is idempotent:
// a neutralised tag has no angle brackets left to write.
func Neutralise(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		if t, ok := tagAt(text[i:]); ok {
			b.WriteString(text[last:i])
			b.WriteString(t.Neutralised())
			i += len(t.Text()) - 1
			last = i + 1
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// tagAt reports the tag s starts with, if any.
func tagAt(s string) (Tag, bool) {
	// Every tag's second byte is one of these; most < in code (a < b,
	// <-ch, <div>) is ruled out here.
	if len(s) < 2 || !tagSecondByte[s[1]] {
		return Tag{}, false
	}
	for _, t := range tagTable {
		if strings.HasPrefix(s, t.Text()) {
			return t, true
		}
	}
	return Tag{}, false
}

var tagSecondByte = func() (t [256]bool) {
	for _, tag := range tagTable {
		t[tag.Text()[1]] = true
	}
	return t
}()
