package sanitize

import (
	"io"
	"runtime"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Check applies the refuse and the flag rules to text and returns what
// Refusals(text) and Flags(text) return. It reads a long text in chunks of
// about a megabyte, on as many goroutines as there are processors, so that
// no rule builds anything (a normalised text, an offset map) the size of
// the whole text.
//
// Each chunk is read with enough text on either side of it for every rule
// to see a match that crosses the chunk's ends (see the contexts below),
// and a rule fires for a chunk only where the match starts inside it. The
// ends are clean cuts (isCleanCut), where normalising the text in pieces
// gives the pieces of the normalised text. TestCheckAcrossChunkEnds puts
// every attack of the corpus across chunk ends, and FuzzCheckAgrees holds
// Check to Refusals and Flags.
func Check(text string) (refusals, flags []Finding) {
	return checkString(text, ownSize)
}

func checkString(text string, size int) (refusals, flags []Finding) {
	c := newChunker(size)
	defer c.stop()
	for own, ctx := 0, 0; own < len(text); {
		ownEnd, end, _ := nextChunk(text, own, true, c.size)
		c.send(text[ctx:end], ctx, own, ownEnd)
		ctx, own = nextContext(text, ctx, ownEnd), ownEnd
	}
	return c.results()
}

// CheckReader is Check on everything r yields. It holds no more of the
// text than a few chunks at a time, however long it is.
func CheckReader(r io.Reader) (refusals, flags []Finding, err error) {
	return checkReader(r, ownSize)
}

func checkReader(r io.Reader, size int) (refusals, flags []Finding, err error) {
	c := newChunker(size)
	defer c.stop()
	var (
		buf  = make([]byte, 0, 2*size+readSize)
		base = 0 // the offset in the text of buf[0]
		ctx  = 0 // these three are offsets in buf
		own  = 0
		eof  = false
	)
	for !eof || own < len(buf) {
		if !eof {
			if len(buf) == cap(buf) {
				// Keep from the context on, in a new buffer: the
				// chunks sent are copies, so the old one may go.
				grown := make([]byte, len(buf)-ctx, max(cap(buf), 2*(len(buf)-ctx)+readSize))
				copy(grown, buf[ctx:])
				base += ctx
				own -= ctx
				ctx = 0
				buf = grown
			}
			n, rerr := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if rerr == io.EOF {
				eof = true
			} else if rerr != nil {
				return nil, nil, rerr
			}
		}
		for own < len(buf) {
			ownEnd, end, ok := nextChunk(buf, own, eof, size)
			if !ok {
				break
			}
			c.send(string(buf[ctx:end]), base+ctx, base+own, base+ownEnd)
			ctx, own = nextContext(buf, ctx, ownEnd), ownEnd
		}
	}
	refusals, flags = c.results()
	return refusals, flags, nil
}

const (
	// ownSize is the length of a chunk, without its contexts: large
	// enough that the contexts cost little, small enough to stay in the
	// processor's cache.
	ownSize = 1 << 20
	// readSize is how much CheckReader asks its reader for at a time.
	readSize = 1 << 20

	// refuseContext is how many bytes (invisible characters not counted)
	// the refuse rules read on either side of where they fire: a secret's
	// window around its keyword, and more than its longest match. The
	// character rules read at most a subdivision flag's 32 bytes.
	refuseContext = windowBefore + windowAfter + 256
	// flagBefore is how many bytes of normalised text the flag rules read
	// before a match: the start of its line, "ssh-", an environment
	// variable's name (envNameMax).
	flagBefore = envNameMax + 128
)

// text is what the chunk planning reads: the whole text, or the part of it
// CheckReader holds.
type textOrBytes interface{ ~string | ~[]byte }

// nextChunk plans the chunk that owns s[own:]'s start: it owns
// s[own:ownEnd] and reads up to end. With more to come (!eof), ok is false
// when s does not hold enough to plan it.
func nextChunk[T textOrBytes](s T, own int, eof bool, size int) (ownEnd, end int, ok bool) {
	ownEnd = cleanCutFrom(s, own+size)
	if ownEnd < 0 {
		return len(s), len(s), eof
	}
	end, ok = contextAfter(s, ownEnd, eof)
	return ownEnd, end, ok
}

// contextAfter is where a chunk that owns up to the clean cut ownEnd stops
// reading: enough text past ownEnd, found by doubling the stretch read
// until normalised text and visible bytes are counted out (runs of white
// space fold away). With more to come (!eof), ok is false when s does not
// hold enough.
func contextAfter[T textOrBytes](s T, ownEnd int, eof bool) (end int, ok bool) {
	after := flagRules().after
	for step := after; ; step *= 2 {
		end = cleanCutFrom(s, ownEnd+step)
		if end < 0 {
			return len(s), eof
		}
		if enough(s[ownEnd:end], after) {
			return end, true
		}
	}
}

// nextContext is where the chunk that owns s[own:] starts reading: a clean
// cut before own with enough text between, and never before the previous
// chunk's start, ctx, which had enough before an earlier own.
func nextContext[T textOrBytes](s T, ctx, own int) int {
	for step := refuseContext; ; step *= 2 {
		p := own - step
		for p > ctx && !isCleanCut(s, p) {
			p--
		}
		if p <= ctx {
			return ctx
		}
		if enough(s[p:own], flagBefore) {
			return p
		}
	}
}

// enough reports whether s, read between two clean cuts, has flagBytes
// bytes of normalised text and refuseContext bytes that are not invisible.
// Of ASCII text, normalising keeps every letter and digit as a byte, and
// writes at most a byte for every other byte and one for each run of white
// space (case, controls and look-alikes fold bytes into as many or fewer):
// those two counts answer without normalising, but for a text between
// them (TestEnoughCountsWhatNormaliseKeeps, D1251).
func enough[T textOrBytes](s T, flagBytes int) bool {
	str := string(s)
	visible, kept, most, high, space := 0, 0, 0, false, false
	for i := 0; i < len(str); {
		if c := str[i]; c < utf8.RuneSelf {
			visible++
			k := asciiKind[c]
			kept += int(k & 1)
			if k&2 == 0 || !space {
				most++
			}
			space = k&2 != 0
			i++
			continue
		}
		high = true
		r, size := utf8.DecodeRuneInString(str[i:])
		if !isInvisible(r) {
			visible += size
		}
		i += size
	}
	switch {
	case visible < refuseContext:
		return false
	case !high && kept >= flagBytes:
		return true
	case !high && most < flagBytes:
		return false
	}
	return len(Normalise(str)) >= flagBytes
}

// asciiKind is, for an ASCII byte, 1 for a letter or digit and 2 for
// white space (normalise's blank and feed).
var asciiKind = func() (t [256]uint8) {
	for c := range 128 {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			t[c] = 1
		case byteClass[c] == blank || byteClass[c] == feed:
			t[c] = 2
		}
	}
	return t
}()

// cleanCutFrom is the first clean cut at or after p, or -1.
func cleanCutFrom[T textOrBytes](s T, p int) int {
	for p = max(p, 1); p < len(s); p++ {
		if isCleanCut(s, p) {
			return p
		}
	}
	return -1
}

// isCleanCut reports whether s may be cut before p: p starts a line (the
// byte before it is a line feed), and the character at p is visible, not
// white space, and starts a new normalisation segment (it combines with
// nothing before it). Then normalising s[:p] and s[p:] apart gives the two
// pieces of the normalised s: a run of white space, an invisible
// character, an NFKC segment, a word (whose look-alikes are folded) and a
// line (which the decoders read) never span the cut. Source code has one
// every line or two.
func isCleanCut[T textOrBytes](s T, p int) bool {
	if p <= 0 || p >= len(s) || s[p-1] != '\n' {
		return false
	}
	c := s[p]
	if c < utf8.RuneSelf {
		return c > ' ' && c != 0x7f
	}
	if !utf8.RuneStart(c) {
		return false
	}
	next := string(s[p:min(len(s), p+utf8.UTFMax)])
	r, size := utf8.DecodeRuneInString(next)
	return !(r == utf8.RuneError && size <= 1 || unicode.IsSpace(r) || isInvisible(r) || unicode.IsControl(r) ||
		!norm.NFKC.PropertiesString(next).BoundaryBefore())
}

// chunker checks chunks on worker goroutines and keeps, for each rule, the
// first offset any chunk reports.
type chunker struct {
	size     int
	jobs     chan chunk
	wg       sync.WaitGroup
	mu       sync.Mutex
	ref, flg findings
	stopped  bool
}

// chunk is a piece of the text from offset at, owning [own, ownEnd).
type chunk struct {
	text            string
	at, own, ownEnd int
}

func newChunker(size int) *chunker {
	c := &chunker{size: size, jobs: make(chan chunk, 1)}
	c.ref, c.flg = findings{to: maxOffset}, findings{to: maxOffset}
	for range max(1, runtime.GOMAXPROCS(0)) {
		c.wg.Add(1)
		go c.work()
	}
	return c
}

const maxOffset = int(^uint(0) >> 1)

func (c *chunker) send(text string, at, own, ownEnd int) {
	c.jobs <- chunk{text, at, own, ownEnd}
}

func (c *chunker) work() {
	defer c.wg.Done()
	for ch := range c.jobs {
		ref := findings{from: ch.own - ch.at, to: ch.ownEnd - ch.at}
		flg := ref
		ref.refuse(ch.text)
		flg.flag(ch.text)
		c.mu.Lock()
		c.ref.merge(&ref, ch.at)
		c.flg.merge(&flg, ch.at)
		c.mu.Unlock()
	}
}

// stop ends the workers (once; results calls it too).
func (c *chunker) stop() {
	if !c.stopped {
		c.stopped = true
		close(c.jobs)
		c.wg.Wait()
	}
}

func (c *chunker) results() (refusals, flags []Finding) {
	c.stop()
	return c.ref.sorted(), c.flg.sorted()
}
