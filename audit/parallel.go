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

// lineChunk is whole lines of a file, and once done, their parses.
type lineChunk struct {
	data   []byte // whole lines, each ended by "\n"
	parsed []parsedLine
	done   chan struct{}
}

var chunkPool = sync.Pool{New: func() any { return &lineChunk{data: make([]byte, 0, chunkSize)} }}

// poisonReleased overwrites a chunk's bytes as it goes back to the pool
// (tests: anything still pointing into them would show it).
var poisonReleased bool

// eachParsedLine calls fn for every complete line of r, in order, with the
// line hashed and decoded (valid until fn has been given the line after
// it, or eachParsedLine has returned for the last), and returns what follows the last newline (a
// torn line, or nothing), as eachLine does. The lines are hashed and
// decoded by one goroutine per processor, a chunk of lines each; fn runs
// on the calling goroutine. A line longer than a chunk is read whole.
//
// done, when not nil, is told the bytes of each chunk once its lines were
// given to fn, before the chunk before it goes back to the pool: what fn
// kept of that chunk's lines without a copy must be copied there.
func eachParsedLine(r io.Reader, fn func(lineNo int, l *parsedLine), done func(bytes int)) (tail []byte, lines int, err error) {
	workers := runtime.GOMAXPROCS(0)
	work := make(chan *lineChunk)
	order := make(chan *lineChunk, 2*workers) // chunks in the order read
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				c.parseAll()
				close(c.done)
			}
		}()
	}
	readErr := make(chan error, 1)
	stop := make(chan struct{})
	go func() {
		defer close(order)
		defer close(work)
		t, err := readChunks(r, func(c *lineChunk) bool {
			select {
			case order <- c:
			case <-stop:
				return false
			}
			work <- c
			return true
		})
		tail = t
		readErr <- err
	}()
	// A chunk goes back to the pool only once the chunk after it is done:
	// fn may keep a pointer to the last line it was given until it is
	// given the next (the chain holds one line pending).
	var prev *lineChunk
	release := func(c *lineChunk) {
		if c != nil {
			if poisonReleased {
				for i := range c.data {
					c.data[i] = 'X'
				}
			}
			c.data, c.parsed = c.data[:0], c.parsed[:0]
			chunkPool.Put(c)
		}
	}
	for c := range order {
		<-c.done
		for i := range c.parsed {
			lines++
			fn(lines, &c.parsed[i])
		}
		if done != nil {
			done(len(c.data))
		}
		release(prev)
		prev = c
	}
	// The last chunk is left to the collector, not the pool: the line fn
	// was given last may still be held after the file's end.
	close(stop)
	wg.Wait()
	err = <-readErr // tail is set before the error is sent
	return tail, lines, err
}

// readChunks reads r into chunks of whole lines and hands each to send,
// which reports false to stop. It returns the bytes after the last
// newline.
func readChunks(r io.Reader, send func(*lineChunk) bool) ([]byte, error) {
	var carry []byte
	for {
		c := chunkPool.Get().(*lineChunk)
		c.data = append(c.data[:0], carry...)
		if cap(c.data) < len(carry)+chunkSize/2 {
			c.data = append(make([]byte, 0, len(carry)+chunkSize), carry...)
		}
		n, err := io.ReadFull(r, c.data[len(c.data):cap(c.data)])
		c.data = c.data[:len(c.data)+n]
		eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		if err != nil && !eof {
			return nil, err
		}
		cut := bytes.LastIndexByte(c.data, '\n') + 1
		carry = append(carry[:0], c.data[cut:]...)
		c.data = c.data[:cut]
		if cut > 0 {
			c.done = make(chan struct{})
			if !send(c) {
				return nil, nil
			}
		} else {
			chunkPool.Put(c)
		}
		if eof {
			return carry, nil
		}
		// A line longer than a chunk is carried whole: the next chunk
		// is made large enough to hold it and half a chunk more.
	}
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
