package audit

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"
	"unsafe"
)

// parsedLine is one complete line of the log, hashed and decoded. The hash
// of a line does not depend on the line before it, nor does its parse, so
// Verify does both on every core and only the chain's checks in order.
//
// What the chain reads of every line in order comes first (err, the
// hashes, then the record's seq, prev, time and type), so that the
// checking goroutine touches as few cache lines of a line another core
// wrote as it can.
type parsedLine struct {
	err    error
	length int
	hash   [32]byte
	// prevSum is the record's prev decoded (a valid record's prev is 64
	// lower-case hex digits, so it equals the hex of a hash exactly when
	// prevSum equals that hash): the chain compares 32 bytes in order,
	// and the decoding is done on every core.
	prevSum [32]byte
	rec     Record
	line    string // the line itself (a piece of its chunk's string)
}

func (p *parsedLine) parse(raw []byte) { p.parseIn(raw, string(raw), nil) }

// parseIn is parse of a line given as bytes and as a string of the same
// bytes: the record's strings are pieces of str. minutes, when not nil,
// reads its time (the lines of a chunk share one).
func (p *parsedLine) parseIn(raw []byte, str string, minutes *minuteCache) {
	p.line, p.length, p.hash = str, len(raw), lineHash(raw)
	p.decode(raw, str, minutes)
}

// decode is parseIn without the hash.
func (p *parsedLine) decode(raw []byte, str string, minutes *minuteCache) {
	p.err = decodeLineSum(raw, str, &p.rec, &p.prevSum, minutes)
}

// chunkSize is how much of a file one worker takes at a time: large enough
// that handing it over costs nothing beside the work (about 250 lines),
// small enough that the chunk and its parses (about 140 KiB) stay in the
// cache of the core that made them until the chain reads them. Against
// 1 MiB, verify's CPU per byte fell by a tenth and its wall-clock time at
// load by half (BenchmarkVerify, docs/performance.md; D968).
const chunkSize = 1 << 16

// lineChunk is whole lines of a file, and once parsed, their parses.
type lineChunk struct {
	data   []byte // whole lines, each ended by "\n"
	parsed []parsedLine
}

var chunkPool = sync.Pool{New: func() any { return &lineChunk{data: make([]byte, 0, chunkSize)} }}

// poisonReleased overwrites a chunk's bytes as it goes back to the pool
// (tests: anything still pointing into them would show it).
var poisonReleased bool

// aheadPerWorker is how many chunks each worker may have read beyond the
// last one given to fn: enough that a worker never waits while another
// finishes the chunk fn needs next, few enough that their parses are still
// in a cache when fn reads them.
const aheadPerWorker = 4

// eachParsedLine calls fn for every complete line of r, in order, with the
// line hashed and decoded (valid until fn has been given the line after
// it, or eachParsedLine has returned for the last), and returns what
// follows the last newline (a torn line, or nothing), as eachLine does. A
// line longer than a chunk is read whole.
//
// One goroutine per processor reads a chunk of lines (one at a time),
// hashes and decodes it, and then gives fn the lines of every chunk that
// is next in order and parsed, unless another one is doing so already. So
// fn runs on one goroutine at a time, in the order of the lines, but not
// on the caller's; and no core waits for a goroutine that only hands
// chunks on (a reader, or fn's own) to be given a core (D1068).
//
// done, when not nil, is told the bytes of each chunk once its lines were
// given to fn, before the chunk before it goes back to the pool: what fn
// kept of that chunk's lines without a copy must be copied there. It runs
// as fn does.
func eachParsedLine(r io.Reader, fn func(lineNo int, l *parsedLine), done func(bytes int)) (tail []byte, lines int, err error) {
	workers := runtime.GOMAXPROCS(0)
	p := &pipeline{cr: chunkReader{r: r}, fn: fn, done: done,
		ahead: make(chan struct{}, aheadPerWorker*workers), parsed: map[int]*lineChunk{}}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work()
		}()
	}
	wg.Wait()
	// Every chunk read was given to fn: the last one is left to the
	// collector, not the pool, as the line fn was given last may still be
	// held after the file's end.
	if p.cr.err != nil {
		return nil, p.lines, p.cr.err
	}
	return p.cr.carry, p.lines, nil
}

// pipeline is what eachParsedLine's goroutines share.
type pipeline struct {
	fn    func(lineNo int, l *parsedLine)
	done  func(bytes int)
	ahead chan struct{} // a token per chunk read and not yet given to fn

	readMu sync.Mutex
	cr     chunkReader
	read   int // chunks read

	mu       sync.Mutex
	parsed   map[int]*lineChunk // parsed and waiting for fn, by number
	giving   bool               // a goroutine is giving lines to fn
	given    int                // chunks given to fn
	lines    int                // lines given to fn
	lastGive *lineChunk         // the chunk given to fn last
}

// work reads, parses and gives chunks until r ends.
func (p *pipeline) work() {
	for {
		p.ahead <- struct{}{}
		p.readMu.Lock()
		c, n := p.cr.next(), p.read
		p.read++
		p.readMu.Unlock()
		if c == nil {
			<-p.ahead
			return
		}
		c.parseAll()
		p.give(n, c)
	}
}

// give hands chunk n, parsed, to fn in its turn: this goroutine gives it,
// and every chunk after it that is parsed, unless another goroutine is
// giving already (that one gives it when its turn comes).
func (p *pipeline) give(n int, c *lineChunk) {
	p.mu.Lock()
	p.parsed[n] = c
	if p.giving {
		p.mu.Unlock()
		return
	}
	p.giving = true
	for {
		c, ok := p.parsed[p.given]
		if !ok {
			p.giving = false
			p.mu.Unlock()
			return
		}
		delete(p.parsed, p.given)
		p.given++
		p.mu.Unlock()
		for i := range c.parsed {
			p.lines++
			p.fn(p.lines, &c.parsed[i])
		}
		if p.done != nil {
			p.done(len(c.data))
		}
		// A chunk goes back to the pool only once the chunk after it was
		// given: fn may keep a pointer to the last line it was given until
		// it is given the next (the chain holds one line pending).
		release(p.lastGive)
		p.lastGive = c
		<-p.ahead
		p.mu.Lock()
	}
}

func release(c *lineChunk) {
	if c == nil {
		return
	}
	if poisonReleased {
		for i := range c.data {
			c.data[i] = 'X'
		}
	}
	c.data, c.parsed = c.data[:0], c.parsed[:0]
	chunkPool.Put(c)
}

// chunkReader cuts r into chunks of whole lines.
type chunkReader struct {
	r     io.Reader
	carry []byte // what followed the last newline read
	end   bool   // r ended (or failed: err)
	err   error
}

// next is the next chunk of whole lines of r, or nil once r has ended
// (carry is then what followed the last newline) or failed (err).
func (cr *chunkReader) next() *lineChunk {
	for !cr.end {
		c := chunkPool.Get().(*lineChunk)
		c.data = append(c.data[:0], cr.carry...)
		if cap(c.data) < len(cr.carry)+chunkSize/2 {
			c.data = append(make([]byte, 0, len(cr.carry)+chunkSize), cr.carry...)
		}
		n, err := io.ReadFull(cr.r, c.data[len(c.data):cap(c.data)])
		c.data = c.data[:len(c.data)+n]
		if err != nil {
			cr.end = true
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				cr.err = err
				return nil
			}
		}
		cut := bytes.LastIndexByte(c.data, '\n') + 1
		cr.carry = append(cr.carry[:0], c.data[cut:]...)
		c.data = c.data[:cut]
		if cut > 0 {
			return c
		}
		chunkPool.Put(c)
		// A line longer than a chunk is carried whole: the next chunk
		// is made large enough to hold it and half a chunk more.
	}
	return nil
}

// parseAll hashes and decodes every line of the chunk. Every record's
// strings are pieces of the chunk's own bytes, seen as a string without a
// copy: no allocation at all for a chunk's lines. Those bytes are the
// pool's again once the chunk after it is done (eachParsedLine), so
// whatever Verify keeps of a line past that (an open call, an approval, a
// break, a call's records, a message) is copied (callTracker when told the
// chunk is done, chain, scan). TestNothingOfAReleasedChunkIsKept overwrites every chunk as it
// goes back to the pool and checks that the report does not change.
func (c *lineChunk) parseAll() {
	n := bytes.Count(c.data, []byte{'\n'})
	if cap(c.parsed) < n {
		c.parsed = make([]parsedLine, n)
	}
	c.parsed = c.parsed[:n]
	data, str := c.data, unsafe.String(unsafe.SliceData(c.data), len(c.data))
	var minutes minuteCache
	for i := range c.parsed {
		end := bytes.IndexByte(data, '\n')
		c.parsed[i].parseIn(data[:end], str[:end], &minutes)
		data, str = data[end+1:], str[end+1:]
	}
}
