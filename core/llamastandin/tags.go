package llamastandin

// TagKind is how a chat-template tag is spelt.
type TagKind int

const (
	// Bar is a tag written <|name|>.
	Bar TagKind = iota
	// Open is a tag written <name>.
	Open
	// Close is a tag written </name>.
	Close
)

// Tag is one special token of the stand-in's tokenizer: the chat-template
// tags of the Qwen3.5 family, with the ids that family gives them.
type Tag struct {
	Name string
	Kind TagKind
	ID   int
}

// Text is the tag as the tokenizer reads it.
func (t Tag) Text() string {
	switch t.Kind {
	case Open:
		return "<" + t.Name + ">"
	case Close:
		return "</" + t.Name + ">"
	default:
		return "<|" + t.Name + "|>"
	}
}

// The stand-in plays the server, so it keeps its own copy of the table
// rather than importing the sanitizer's: a test keeps the two in step, the
// way a real server and loopd's compiled table must agree.
//
// The Qwen3.5 family keeps Qwen3's special tokens in the same order and
// spacing, shifted by 96401: <|endoftext|> is 151643 in Qwen3 and 248044
// here, <|im_end|> 248046, <think> 248068.
const qwen35Base = 248044

var tagLayout = []struct {
	name string
	kind TagKind
}{
	{"endoftext", Bar}, {"im_start", Bar}, {"im_end", Bar},
	{"object_ref_start", Bar}, {"object_ref_end", Bar},
	{"box_start", Bar}, {"box_end", Bar}, {"quad_start", Bar}, {"quad_end", Bar},
	{"vision_start", Bar}, {"vision_end", Bar}, {"vision_pad", Bar},
	{"image_pad", Bar}, {"video_pad", Bar},
	{"tool_call", Open}, {"tool_call", Close},
	{"fim_prefix", Bar}, {"fim_middle", Bar}, {"fim_suffix", Bar}, {"fim_pad", Bar},
	{"repo_name", Bar}, {"file_sep", Bar},
	{"tool_response", Open}, {"tool_response", Close},
	{"think", Open}, {"think", Close},
}

var tagTable = func() []Tag {
	out := make([]Tag, len(tagLayout))
	for i, e := range tagLayout {
		out[i] = Tag{Name: e.name, Kind: e.kind, ID: qwen35Base + i}
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
