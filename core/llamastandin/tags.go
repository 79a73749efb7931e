package llamastandin

import "boxmaker/sanitize"

// Tag is one special token of the stand-in's tokenizer: the chat-template
// tags of the Qwen3.5 family, with the ids that family gives them. A tag's
// spelling (<|name|>, <name>, </name>) is sanitize's; the table below, the
// names and ids a server gives them, is the stand-in's own.
type Tag = sanitize.Tag

// The stand-in plays the server, so it keeps its own copy of the table
// rather than the sanitizer's: a test keeps the two in step, the
// way a real server and loopd's compiled table must agree.
//
// The Qwen3.5 family keeps Qwen3's special tokens in the same order and
// spacing, shifted by 96401: <|endoftext|> is 151643 in Qwen3 and 248044
// here, <|im_end|> 248046, <think> 248068.
const qwen35Base = 248044

var tagLayout = []struct {
	name string
	kind sanitize.TagKind
}{
	{"endoftext", sanitize.Bar}, {"im_start", sanitize.Bar}, {"im_end", sanitize.Bar},
	{"object_ref_start", sanitize.Bar}, {"object_ref_end", sanitize.Bar},
	{"box_start", sanitize.Bar}, {"box_end", sanitize.Bar}, {"quad_start", sanitize.Bar}, {"quad_end", sanitize.Bar},
	{"vision_start", sanitize.Bar}, {"vision_end", sanitize.Bar}, {"vision_pad", sanitize.Bar},
	{"image_pad", sanitize.Bar}, {"video_pad", sanitize.Bar},
	{"tool_call", sanitize.Open}, {"tool_call", sanitize.Close},
	{"fim_prefix", sanitize.Bar}, {"fim_middle", sanitize.Bar}, {"fim_suffix", sanitize.Bar}, {"fim_pad", sanitize.Bar},
	{"repo_name", sanitize.Bar}, {"file_sep", sanitize.Bar},
	{"tool_response", sanitize.Open}, {"tool_response", sanitize.Close},
	{"think", sanitize.Open}, {"think", sanitize.Close},
}

var tagTable = func() []Tag {
	out := make([]Tag, len(tagLayout))
	for i, e := range tagLayout {
		out[i] = Tag{Name: e.name, Kind: e.kind, TokenID: qwen35Base + i}
	}
	return out
}()

// Tags is the tokenizer's special tokens in id order (a copy).
func Tags() []Tag { return append([]Tag(nil), tagTable...) }

// tagByText finds a tag by its text.
func tagByText(text string) (Tag, bool) {
	for _, t := range tagTable {
		if t.Text() == text {
			return t, true
		}
	}
	return Tag{}, false
}
