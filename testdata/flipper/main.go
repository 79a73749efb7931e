// Command flipper is the attacker of the containment race tests: the
// program a model would write, deliver with write_file and start with
// run. For each NAME:TARGET it keeps NAME a real directory and NAME.alt
// a symbolic link to TARGET (a host path outside every grant), and
// exchanges the two with renameat2(RENAME_EXCHANGE) in a tight loop, so
// that NAME is a directory one moment and a link out of the grant the
// next. It stops when the file "stop" appears in its working directory,
// or after the given time, and prints how many exchanges it made.
//
// Usage: flipper SECONDS NAME:TARGET...
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: flipper SECONDS NAME:TARGET...")
		os.Exit(2)
	}
	secs, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "flipper:", err)
		os.Exit(2)
	}
	var names []string
	for _, a := range os.Args[2:] {
		name, target, ok := strings.Cut(a, ":")
		if !ok {
			fmt.Fprintf(os.Stderr, "flipper: %q is not NAME:TARGET\n", a)
			os.Exit(2)
		}
		os.Remove(name + ".alt")
		if err := os.Symlink(target, name+".alt"); err != nil {
			fmt.Fprintln(os.Stderr, "flipper:", err)
			os.Exit(1)
		}
		names = append(names, name)
	}
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	flips := 0
	for i := 0; ; i++ {
		if i%1024 == 0 {
			if _, err := os.Lstat("stop"); err == nil || time.Now().After(deadline) {
				break
			}
		}
		for _, n := range names {
			if err := unix.Renameat2(unix.AT_FDCWD, n, unix.AT_FDCWD, n+".alt", unix.RENAME_EXCHANGE); err != nil {
				fmt.Fprintln(os.Stderr, "flipper:", err)
				os.Exit(1)
			}
			flips++
		}
	}
	// Leave each name a real directory, as it began.
	for _, n := range names {
		if fi, err := os.Lstat(n); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			unix.Renameat2(unix.AT_FDCWD, n, unix.AT_FDCWD, n+".alt", unix.RENAME_EXCHANGE)
		}
	}
	fmt.Printf("flipper: %d exchanges\n", flips)
}
