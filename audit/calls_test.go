package audit

import (
	"fmt"
	"sort"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// openCalls is a map by (session, call): whatever the puts, takes and
// settles, it answers as a map of copied calls does, and what it holds
// past a settle does not change when the bytes its strings were pieces of
// are overwritten (as a chunk's are when it goes back to the pool). Twelve
// keys, more than the front holds, so that calls go to the map and back.
func FuzzOpenCallsIsAMap(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 1, 4, 2, 0, 1, 5, 8})
	f.Add([]byte{0, 2, 0, 1, 30, 33, 34, 35, 0, 3, 27, 1, 4, 2, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var o openCalls
		want := map[callKey]Call{}
		// The bytes the calls' strings are pieces of, as a chunk's are.
		chunk := make([]byte, 0, 1<<12)
		borrow := func(s string) string {
			if s == "" {
				return ""
			}
			if len(chunk)+len(s) > cap(chunk) {
				chunk = make([]byte, 0, 1<<12) // the old one stays as it is: nothing settled yet points into it
			}
			chunk = append(chunk, s...)
			return unsafe.String(&chunk[len(chunk)-len(s)], len(s))
		}
		for i, b := range ops {
			k := int(b/3) % 12
			session, call := fmt.Sprintf("s-%d", k%3), fmt.Sprintf("call_%d", k)
			switch b % 3 {
			case 0:
				c := Call{Position: Position{File: "000001.jsonl", Line: i + 1}, Session: borrow(session), Call: borrow(call),
					Tool: borrow("write_file"), Target: borrow(fmt.Sprintf("/t/%d/%d", k, i)), ContentSHA256: borrow(zeroPrev[:i%65])}
				o.put(c)
				want[callKey{session, call}] = cloneCall(c)
			case 1:
				got, ok := o.take(callKey{borrow(session), borrow(call)})
				w, wok := want[callKey{session, call}]
				delete(want, callKey{session, call})
				if ok != wok || got != w {
					t.Fatalf("op %d: take(%s, %s) = %v, %v; a map gives %v, %v", i, session, call, got, ok, w, wok)
				}
			case 2:
				o.settle()
				for j := range chunk {
					chunk[j] = 'X'
				}
				chunk = make([]byte, 0, 1<<12)
			}
		}
		o.settle()
		for j := range chunk {
			chunk[j] = 'X'
		}
		var got, all []Call
		for _, c := range o.settled {
			got = append(got, c)
		}
		for _, c := range want {
			all = append(all, c)
		}
		byLine := func(cs []Call) {
			sort.Slice(cs, func(i, j int) bool { return cs[i].Line < cs[j].Line })
		}
		byLine(got)
		byLine(all)
		if diff := cmp.Diff(all, got); diff != "" {
			t.Fatalf("after %v (-map +openCalls):\n%s", ops, diff)
		}
	})
}
