package main

// The README's "first hour" is run by testdata/script/first-hour.txtar:
// readmesh takes a block of it, as written, into a shell script the
// script runs. TestFirstHourIsRun holds that every block is taken.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// readmeCmds are the commands the README scripts add.
var readmeCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"readmesh": cmdReadmeSh,
	"grab":     cmdGrab,
	"waitout":  cmdWaitout,
}

var readmeBlockRE = regexp.MustCompile("(?s)<!-- first-hour: ([a-z-]+) -->\n```sh\n(.*?)```\n")

// firstHourBlocks reads the README's first-hour blocks, by label.
func firstHourBlocks(readme string) (map[string]string, []string, error) {
	data, err := os.ReadFile(readme)
	if err != nil {
		return nil, nil, err
	}
	blocks := map[string]string{}
	var order []string
	for _, m := range readmeBlockRE.FindAllStringSubmatch(string(data), -1) {
		if _, dup := blocks[m[1]]; dup {
			return nil, nil, fmt.Errorf("%s: two blocks labelled %s", readme, m[1])
		}
		blocks[m[1]] = m[2]
		order = append(order, m[1])
	}
	return blocks, order, nil
}

// readmeDir is the checkout the tests run in (go test runs a package's
// tests in its directory), read before the scripts change directory.
var readmeDir, _ = os.Getwd()

// readmesh [-exec] LABEL [OLD=NEW...]: writes the README block LABEL,
// with each OLD replaced by NEW (a port, the checkout's path), to
// $WORK/readme-LABEL.sh, for the script to run with sh. -exec makes the
// shell exec the block's one command, so that a signal the script sends
// to sh reaches the command itself (boxmaker up, the stand-in).
func cmdReadmeSh(ts *testscript.TestScript, neg bool, args []string) {
	execIt := len(args) > 0 && args[0] == "-exec"
	if execIt {
		args = args[1:]
	}
	if neg || len(args) == 0 {
		ts.Fatalf("usage: readmesh [-exec] LABEL [OLD=NEW...]")
	}
	blocks, _, err := firstHourBlocks(filepath.Join(readmeDir, "README.md"))
	if err != nil {
		ts.Fatalf("readmesh: %v", err)
	}
	block, ok := blocks[args[0]]
	if !ok {
		ts.Fatalf("readmesh: README.md has no first-hour block %q", args[0])
	}
	for _, sub := range args[1:] {
		old, new, ok := strings.Cut(sub, "=")
		if !ok || !strings.Contains(block, old) {
			ts.Fatalf("readmesh: %q: the block has no %q to replace", sub, old)
		}
		block = strings.ReplaceAll(block, old, new)
	}
	if execIt {
		if strings.Count(strings.TrimSpace(block), "\n") > 0 {
			ts.Fatalf("readmesh: -exec takes a block of one command; %s has more", args[0])
		}
		block = "exec " + block
	}
	if err := os.WriteFile(ts.MkAbs("readme-"+args[0]+".sh"), []byte(block), 0o644); err != nil {
		ts.Fatalf("readmesh: %v", err)
	}
}

// grab VAR REGEXP: sets VAR to the first group of REGEXP's first match
// in the last command's standard output.
func cmdGrab(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: grab VAR REGEXP")
	}
	m := regexp.MustCompile(args[1]).FindStringSubmatch(ts.ReadFile("stdout"))
	if len(m) < 2 {
		ts.Fatalf("grab: no match for %q in stdout", args[1])
	}
	ts.Setenv(args[0], m[1])
}

// waitout REGEXP prog args...: runs prog every 100 ms until its standard
// output matches REGEXP, for at most 20 s.
func cmdWaitout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: waitout REGEXP prog [args...]")
	}
	re := regexp.MustCompile(args[0])
	deadline := time.Now().Add(20 * time.Second)
	for {
		ts.Exec(args[1], args[2:]...)
		if re.MatchString(ts.ReadFile("stdout")) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitout: %s never printed %q; last:\n%s", args[1], args[0], ts.ReadFile("stdout"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestFirstHourIsRun: every block of the README's first hour is run by
// the first-hour script, but the build, which scripts/test.sh runs
// before every test.
func TestFirstHourIsRun(t *testing.T) {
	blocks, order, err := firstHourBlocks("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(order) < 8 {
		t.Fatalf("README.md has %d first-hour blocks: the pattern no longer finds them", len(order))
	}
	script, err := os.ReadFile("testdata/script/first-hour.txtar")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("scripts/test.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range order {
		if label == "install" {
			if strings.TrimSpace(blocks[label]) != "scripts/build.sh && export PATH=$PWD/bin:$PATH" || !strings.Contains(string(ci), "\nscripts/build.sh\n") {
				t.Errorf("the install block is not what scripts/test.sh runs:\n%s", blocks[label])
			}
			continue
		}
		if !regexp.MustCompile(`(?m)^readmesh (-exec )?` + label + `( |$)`).Match(script) {
			t.Errorf("README block %q is run by no readmesh in first-hour.txtar", label)
		}
		if !regexp.MustCompile(`(?m)^(exec|exits \d+) sh (-e )?\$WORK/readme-` + label + `\.sh`).Match(script) {
			t.Errorf("README block %q is taken but not run by first-hour.txtar", label)
		}
	}
}
