// Package startgc holds Go's collector back while a process starts. main
// imports it for this alone: its init runs before the packages that
// allocate most at init (jsonschema/v6 compiles its draft meta-schemas in
// its init, about 1.7 MB), and from then until startWait has passed the
// collector runs only if the heap reaches startLimit. After that the
// collector is as Go's defaults set it.
//
// A process's start (package init, the role's config, a yaag Run's bundle
// and runtime) allocates 4 to 8 MB, most of it live until the process
// ends; the default collector ran one or two cycles over it in every
// process, a few ms of a short command's 10 to 20 (yaag run --eval's
// start goal is 20 ms for the whole process: docs/performance.md). A
// daemon pays it once and then collects as usual. An operator's GOGC or
// GOMEMLIMIT is left alone (D363).
//
// It is the one package whose init does something on purpose: it must
// come before the others' init, which no code in main can.
package startgc

import (
	"os"
	"runtime/debug"
	"time"
)

const (
	startWait  = 100 * time.Millisecond
	startLimit = 64 << 20
)

func init() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startLimit)
	time.AfterFunc(startWait, func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
}
