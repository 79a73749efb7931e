package llamastandin

import (
	"fmt"
	"sync"
	"time"
)

// Switch changes the stand-in's behaviour at run time; nil fields keep
// their value. It is also the body of POST /standin/switch.
type Switch struct {
	// Template replaces /props chat_template (its sha256 changes; the
	// rendering stays Render's).
	Template *string `json:"template,omitempty"`
	// ParseToolCalls false returns tool call text as content.
	ParseToolCalls *bool `json:"parse_tool_calls,omitempty"`
	// ForgetCache erases every slot's cache now, once.
	ForgetCache bool `json:"forget_cache,omitempty"`
	// CacheDisabled true makes every request start from an empty cache.
	CacheDisabled *bool `json:"cache_disabled,omitempty"`
	// Stall is "none", "never" or "slow"; DelayMS is the slow delay.
	Stall   *StallMode `json:"stall,omitempty"`
	DelayMS *int       `json:"delay_ms,omitempty"`
	// FailAfterChunks >= 0 makes chat completions fail: a streamed one
	// sends that many chunks, then data: {"error":...} and ends without
	// [DONE]; an unstreamed one answers 500. -1 turns it off.
	FailAfterChunks *int `json:"fail_after_chunks,omitempty"`
	// Loading true answers 503 "Loading model" on every llama.cpp path.
	Loading *bool `json:"loading,omitempty"`
	// TagIDs gives tags (by their text, such as "<|im_end|>") other token
	// ids, as another model file's tokenizer would: /tokenize and the
	// prompts then use them. It replaces the earlier moves; {} undoes them.
	TagIDs map[string]int `json:"tag_ids,omitempty"`
	// ReadEscapedTags true makes the tokenizer read a tag spelt with &lt;
	// and &gt; (&lt;|im_end|&gt;, as loopd neutralises it) as the tag, the
	// way a tokenizer that decodes HTML entities first would.
	ReadEscapedTags *bool `json:"read_escaped_tags,omitempty"`
	// NotFound lists paths (such as "/tokenize") answered 404 File Not
	// Found, as a router in front of llama-server that does not pass them
	// answers. It replaces the earlier list; [] undoes it.
	NotFound []string `json:"not_found,omitempty"`
	// Router true checks ?model= and a request's "model" as llama-server's
	// router mode does (400 "model 'x' not found"); a single-model server,
	// the default, ignores them.
	Router *bool `json:"router,omitempty"`
	// Unparsable is "fail" (the default, as the real server) or "content"
	// (text that breaks the tool-call format is returned as content).
	Unparsable *UnparsableMode `json:"unparsable,omitempty"`
	// ErrorSilenceMS is how long the server stays silent before it fails
	// on output it cannot parse (the real one held 11.6 s back).
	ErrorSilenceMS *int `json:"error_silence_ms,omitempty"`
	// CloseReused true makes the server close the next kept-alive
	// connection a request arrives on (one that has served a request
	// before) without answering, once: as a server that closed an idle
	// connection as the client reused it.
	CloseReused bool `json:"close_reused,omitempty"`
}

// Set applies a switch.
func (s *Server) Set(sw Switch) error {
	if sw.Stall != nil {
		switch *sw.Stall {
		case StallNone, StallNever, StallSlow:
		default:
			return fmt.Errorf("stall must be none, never or slow, not %q", *sw.Stall)
		}
	}
	if sw.DelayMS != nil && *sw.DelayMS < 0 {
		return fmt.Errorf("delay_ms must not be negative")
	}
	if sw.ErrorSilenceMS != nil && *sw.ErrorSilenceMS < 0 {
		return fmt.Errorf("error_silence_ms must not be negative")
	}
	if sw.Unparsable != nil && *sw.Unparsable != UnparsableFail && *sw.Unparsable != UnparsableContent {
		return fmt.Errorf("unparsable must be fail or content, not %q", *sw.Unparsable)
	}
	for text, id := range sw.TagIDs {
		if _, ok := tagByText(text); !ok {
			return fmt.Errorf("tag_ids: %q is not a tag of the tokenizer", text)
		}
		if id < 0 {
			return fmt.Errorf("tag_ids: the id of %q must not be negative", text)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	setGiven(&s.sw.template, sw.Template)
	setGiven(&s.sw.parseToolCalls, sw.ParseToolCalls)
	if sw.ForgetCache {
		for _, sl := range s.slots {
			sl.cache = nil
		}
		s.saved = nil
	}
	setGiven(&s.sw.cacheDisabled, sw.CacheDisabled)
	setGiven(&s.sw.stall, sw.Stall)
	if sw.DelayMS != nil {
		s.sw.delay = time.Duration(*sw.DelayMS) * time.Millisecond
	}
	setGiven(&s.sw.failAfter, sw.FailAfterChunks)
	setGiven(&s.sw.loading, sw.Loading)
	if sw.TagIDs != nil {
		moved := map[string]int{}
		for text, id := range sw.TagIDs {
			if t, _ := tagByText(text); t.TokenID != id {
				moved[text] = id
			}
		}
		s.sw.vocab.moved = moved
	}
	setGiven(&s.sw.vocab.entities, sw.ReadEscapedTags)
	setGiven(&s.sw.router, sw.Router)
	setGiven(&s.sw.unparsable, sw.Unparsable)
	if sw.ErrorSilenceMS != nil {
		s.sw.errorSilence = time.Duration(*sw.ErrorSilenceMS) * time.Millisecond
	}
	if sw.CloseReused {
		s.sw.closeReused = true
	}
	if sw.NotFound != nil {
		nf := map[string]bool{}
		for _, p := range sw.NotFound {
			nf[p] = true
		}
		s.sw.notFound = nf
	}
	return nil
}

// setGiven sets *dst to *v when the switch gives v (nil keeps *dst).
func setGiven[T any](dst, v *T) {
	if v != nil {
		*dst = *v
	}
}

// SetTemplate changes the chat template /props reports.
func (s *Server) SetTemplate(t string) { s.Set(Switch{Template: &t}) }

// SetParseToolCalls turns tool call parsing on or off.
func (s *Server) SetParseToolCalls(on bool) { s.Set(Switch{ParseToolCalls: &on}) }

// ForgetCache erases every slot's cache once.
func (s *Server) ForgetCache() { s.Set(Switch{ForgetCache: true}) }

// SetCacheDisabled makes every request start from an empty cache.
func (s *Server) SetCacheDisabled(on bool) { s.Set(Switch{CacheDisabled: &on}) }

// SetStall sets the stall mode; delay is used by StallSlow.
func (s *Server) SetStall(mode StallMode, delay time.Duration) error {
	ms := int(delay / time.Millisecond)
	return s.Set(Switch{Stall: &mode, DelayMS: &ms})
}

// SetFailAfter makes chat completions fail after n streamed chunks; -1
// turns it off.
func (s *Server) SetFailAfter(n int) { s.Set(Switch{FailAfterChunks: &n}) }

// SetLoading puts the server into or out of the loading state.
func (s *Server) SetLoading(on bool) { s.Set(Switch{Loading: &on}) }

// MoveTag gives the tag spelt text the token id id, as another model
// file's tokenizer would.
func (s *Server) MoveTag(text string, id int) error {
	s.mu.Lock()
	moved := map[string]int{}
	for k, v := range s.sw.vocab.moved {
		moved[k] = v
	}
	s.mu.Unlock()
	moved[text] = id
	return s.Set(Switch{TagIDs: moved})
}

// SetReadEscapedTags makes the tokenizer read &lt;|im_end|&gt; and the
// like as the tags they spell, or stop doing so.
func (s *Server) SetReadEscapedTags(on bool) { s.Set(Switch{ReadEscapedTags: &on}) }

// SetNotFound makes the server answer 404 on the paths given, as a router
// that does not pass them would; none undoes it.
func (s *Server) SetNotFound(paths ...string) {
	s.Set(Switch{NotFound: append([]string{}, paths...)})
}

// HoldStreams makes streamed chat answers stop before their final chunk
// until release is called, so a test can see that what came before
// arrived on its own.
func (s *Server) HoldStreams() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	s.hold = ch
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.hold == ch {
				s.hold = nil
			}
			s.mu.Unlock()
			close(ch)
		})
	}
}

func (s *Server) snapshot() state {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sw
}
