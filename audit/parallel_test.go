package audit

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// eachParsedLine gives the lines eachLine gives, in order, and the same
// tail: across chunk ends, for lines longer than a chunk, empty lines,
// and with or without a torn last line.
func TestParsedLinesAreTheLinesInOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var b bytes.Buffer
	for i := 0; b.Len() < 5*chunkSize; i++ {
		switch {
		case i == 100:
			b.WriteString(strings.Repeat("x", 2*chunkSize+17) + "\n") // longer than a chunk
		case i%50 == 0:
			b.WriteString("\n")
		default:
			r := result(i)
			r.Seq, r.Prev, r.Time = uint64(i), zeroPrev, testTime
			r.Note = strings.Repeat("n", rng.Intn(600))
			b.Write(append(appendLine(nil, &r), '\n'))
		}
	}
	for _, tail := range []string{"", `{"seq":9,"prev":"0`} {
		data := append(bytes.Clone(b.Bytes()), tail...)
		var want []parsedLine
		wantTail, wantN, err := eachLine(bytes.NewReader(data), func(n int, raw []byte) {
			var p parsedLine
			p.parse(raw)
			want = append(want, p)
		})
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		gotTail, gotN, err := eachParsedLine(bytes.NewReader(data), func(n int, p *parsedLine) {
			if n != i+1 || i >= len(want) || p.hash != want[i].hash || p.length != want[i].length || (p.err == nil) != (want[i].err == nil) || p.rec.Seq != want[i].rec.Seq {
				t.Fatalf("line %d differs", n)
			}
			i++
		}, nil)
		if err != nil || gotN != wantN || i != wantN || string(gotTail) != string(wantTail) || string(gotTail) != tail {
			t.Fatalf("got %d lines, tail %q, %v; want %d, %q", gotN, gotTail, err, wantN, wantTail)
		}
	}
}
