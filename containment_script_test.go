package main

// The scripts' commands for the containment attacks (issue 8): the race
// of a parent directory swapped between the decision and the mount,
// driven through the real brokerd with real containers.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// containmentCmds are the commands the containment scripts add.
var containmentCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"racesuite": cmdRacesuite,
}

// raceCallsEnv sets the number of racing calls of brokerd-race.txtar; the
// script's own number is the CI size.
const raceCallsEnv = "BOXMAKER_RACE_CALLS"

var (
	flipperOnce sync.Once
	flipperB64  string
	flipperErr  error
)

// flipperBase64 builds testdata/flipper (static, no cgo) once per test
// binary and returns it base64-encoded: the model delivers it as text
// with write_file and decodes it with run.
func flipperBase64() (string, error) {
	flipperOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bxflipper")
		if err != nil {
			flipperErr = err
			return
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "flipper")
		build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./testdata/flipper")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			flipperErr = fmt.Errorf("go build ./testdata/flipper: %v\n%s", err, out)
			return
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			flipperErr = err
			return
		}
		flipperB64 = base64.StdEncoding.EncodeToString(data)
	})
	return flipperB64, flipperErr
}

// The race's markers: what is inside the grant and what is outside it.
const (
	insideText    = "inside\n"
	outsideSecret = "OUTSIDE-SECRET"
	insideOnly    = "inside-only"
	outsideOnly   = "outside-only"
	outsideMarker = "outside-marker"
)

// racesuite CONFIG GRANTED OUTSIDE GRANTS CALLS: the parent-swap race
// (issue 8, item 1). GRANTED is a directory every file tool and run are
// granted on; OUTSIDE is a root-only directory outside every grant and
// GRANTS the grants directory. The suite lays out GRANTED/sub (x.txt,
// d/) and GRANTED/sub2, and OUTSIDE with the same names; delivers the
// flipper into GRANTED with write_file and starts it with run, flipping
// sub between itself and a link to OUTSIDE, and sub2 between itself and
// a link to GRANTS; then sends CALLS calls (read_file sub/x.txt,
// list_dir sub/d, write_file sub/w-N.txt and sub2/evil-N.toml, run in
// sub/d) from eight sessions, four at a time. A leak is any answer that
// shows OUTSIDE's content, and any file that appears in OUTSIDE or
// GRANTS or changes there. $BOXMAKER_RACE_CALLS replaces CALLS.
func cmdRacesuite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: racesuite CONFIG GRANTED OUTSIDE GRANTS CALLS")
	}
	cfgPath, granted, outside, grants := ts.MkAbs(args[0]), ts.MkAbs(args[1]), ts.MkAbs(args[2]), ts.MkAbs(args[3])
	calls, err := strconv.Atoi(args[4])
	if err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	if v := os.Getenv(raceCallsEnv); v != "" {
		if calls, err = strconv.Atoi(v); err != nil {
			ts.Fatalf("racesuite: $%s: %v", raceCallsEnv, err)
		}
	}
	home := filepath.Dir(filepath.Dir(cfgPath))
	sock := filepath.Join(home, "run/loop-broker/broker.sock")

	layRaceTree(ts, granted, outside)
	before := treeState(ts, outside) + treeState(ts, grants)
	outsideIDs := treeIDs(ts, outside, grants)

	b64, err := flipperBase64()
	if err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	deliver, _ := json.Marshal(map[string]string{"path": granted + "/flipper.b64", "content": b64})
	out, err := sendToolCall(sock, "flip", "deliver", "write_file", string(deliver), time.Minute)
	if err != nil || !strings.Contains(out, `"outcome":"allowed"`) {
		ts.Fatalf("racesuite: delivering the flipper: %v\n%s", err, out)
	}
	flipCmd := fmt.Sprintf("base64 -d flipper.b64 > flipper && chmod 700 flipper && exec ./flipper 900 sub:%s sub2:%s", outside, grants)
	flipArgs, _ := json.Marshal(map[string]any{"command": []string{"sh", "-c", flipCmd}, "paths": []string{granted}})
	flipDone := make(chan string, 1)
	go func() {
		out, err := sendToolCall(sock, "flip", "flipper", "run", string(flipArgs), 20*time.Minute)
		if err != nil {
			out += fmt.Sprintf("failed: %v\n", err)
		}
		flipDone <- out
	}()
	waitFlipping(ts, granted, flipDone)

	var (
		mu             sync.Mutex
		leaks          []string
		counts         = map[string]int{}
		next           atomic.Int64
		wg             sync.WaitGroup
		toolsInOrder   = []string{"read_file", "list_dir", "write_file", "write_grant", "run"}
		perToolAllowed = map[string]int{}
	)
	// The calls go on past CALLS (up to ten times as many) until one was
	// refused as target-changed, so that the script can show that entry.
	var changed atomic.Int64
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= 10*calls || (i >= calls && changed.Load() > 0) {
					return
				}
				kind := toolsInOrder[i%len(toolsInOrder)]
				tool, argsJSON := raceCall(kind, granted, i)
				session := fmt.Sprintf("race-%d", i%8)
				out, err := sendToolCall(sock, session, fmt.Sprintf("r%d", i), tool, argsJSON, 5*time.Minute)
				mu.Lock()
				switch {
				case err != nil:
					counts["lost"]++
				case strings.Contains(out, `"outcome":"allowed"`):
					counts["allowed"]++
					perToolAllowed[kind]++
				case strings.Contains(out, `"outcome":"denied"`):
					counts["denied"]++
				default:
					counts["failed"]++
				}
				if strings.Contains(out, "the target changed after the decision") {
					changed.Add(1)
				}
				if leak := raceLeak(kind, out); leak != "" {
					leaks = append(leaks, fmt.Sprintf("call r%d (%s): %s: %s", i, kind, leak, strings.TrimSpace(out)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	calls = counts["allowed"] + counts["denied"] + counts["failed"] + counts["lost"]
	if err := os.WriteFile(filepath.Join(granted, "stop"), nil, 0o644); err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	var flipOut string
	select {
	case flipOut = <-flipDone:
	case <-time.After(2 * time.Minute):
		ts.Fatalf("racesuite: the flipper did not stop")
	}
	if !strings.Contains(flipOut, "flipper: ") || !strings.Contains(flipOut, " exchanges") {
		ts.Fatalf("racesuite: the flipper did not run to its end:\n%s", flipOut)
	}
	if after := treeState(ts, outside) + treeState(ts, grants); after != before {
		leaks = append(leaks, fmt.Sprintf("the directories outside the grant changed:\nbefore:\n%safter:\n%s", before, after))
	}
	leaks = append(leaks, mountedOutside(ts, filepath.Join(home, "audit"), outsideIDs)...)
	var kinds []string
	for k, n := range perToolAllowed {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	fmt.Fprintf(ts.Stdout(), "race: %d calls: %d allowed (%s), %d denied, %d failed (%d target-changed), %d lost; leaks: %d\n",
		calls, counts["allowed"], strings.Join(kinds, ", "), counts["denied"], counts["failed"], changed.Load(), counts["lost"], len(leaks))
	if len(leaks) > 0 {
		ts.Fatalf("racesuite: %d leaks:\n%s", len(leaks), strings.Join(leaks, "\n"))
	}
}

// layRaceTree makes the same names inside the grant and outside it, with
// different content, so that every answer tells which side it came from.
func layRaceTree(ts *testscript.TestScript, granted, outside string) {
	for _, d := range []string{granted + "/sub/d", granted + "/sub2", outside + "/d"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			ts.Fatalf("racesuite: %v", err)
		}
	}
	files := map[string]string{
		granted + "/sub/x.txt":             insideText,
		granted + "/sub/d/" + insideOnly:   "",
		granted + "/sub/d/marker":          "inside-marker\n",
		outside + "/x.txt":                 outsideSecret + "\n",
		outside + "/d/" + outsideOnly:      "",
		outside + "/d/marker":              outsideMarker + "\n",
		outside + "/d/.keep-outside-owned": "",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			ts.Fatalf("racesuite: %v", err)
		}
	}
	if err := os.Chmod(outside, 0o700); err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	// The granted tree is the owner's, as the directory it is in.
	var st syscall.Stat_t
	if err := syscall.Stat(granted, &st); err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	filepath.Walk(granted, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			err = os.Lchown(p, int(st.Uid), int(st.Gid))
		}
		if err != nil {
			ts.Fatalf("racesuite: %v", err)
		}
		return nil
	})
}

// raceCall is one racing call of a kind: its tool and arguments.
func raceCall(kind, granted string, i int) (string, string) {
	var a any
	tool := kind
	switch kind {
	case "read_file":
		a = map[string]string{"path": granted + "/sub/x.txt"}
	case "list_dir":
		a = map[string]string{"path": granted + "/sub/d"}
	case "write_file":
		a = map[string]string{"path": fmt.Sprintf("%s/sub/w-%d.txt", granted, i), "content": "written by a racing call\n"}
	case "write_grant":
		tool = "write_file"
		a = map[string]string{"path": fmt.Sprintf("%s/sub2/evil-%d.toml", granted, i),
			"content": "tool = \"read_file\"\neffect = \"allow\"\npaths = [\"/etc\"]\nclass = \"public\"\nmax_taint = \"secret\"\n"}
	case "run":
		a = map[string]any{"command": []string{"sh", "-c", fmt.Sprintf("cat marker; ls; touch r-%d", i)},
			"paths": []string{granted + "/sub/d"}}
	}
	data, _ := json.Marshal(a)
	return tool, string(data)
}

// raceLeak says what in an answer came from outside the grant, or "".
func raceLeak(kind, out string) string {
	for _, m := range []string{outsideSecret, outsideOnly, outsideMarker, ".keep-outside-owned"} {
		if strings.Contains(out, m) {
			return "the answer shows " + m
		}
	}
	return ""
}

// waitFlipping waits until the flipper has made sub a link at least once.
func waitFlipping(ts *testscript.TestScript, granted string, flipDone chan string) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if fi, err := os.Lstat(granted + "/sub"); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return
		}
		select {
		case out := <-flipDone:
			ts.Fatalf("racesuite: the flipper ended before flipping:\n%s", out)
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			ts.Fatalf("racesuite: the flipper did not start flipping in 2 minutes")
		}
	}
}

// treeState lists every entry under dir with its mode, owner, size and
// content hash-free text (the trees are small), in order.
func treeState(ts *testscript.TestScript, dir string) string {
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d", strings.TrimPrefix(p, dir), fi.Mode(), fi.Size())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	return b.String()
}

// treeIDs is the device and inode of every entry under the dirs.
func treeIDs(ts *testscript.TestScript, dirs ...string) map[[2]uint64]string {
	ids := map[[2]uint64]string{}
	for _, dir := range dirs {
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				ts.Fatalf("racesuite: %v", err)
			}
			st := fi.Sys().(*syscall.Stat_t)
			ids[[2]uint64{st.Dev, st.Ino}] = p
			return nil
		})
	}
	return ids
}

var mountedRE = regexp.MustCompile(`device (\d+):(\d+), inode (\d+)`)

// mountedOutside reads the result records' notes of what each container
// was given and reports every object among ids.
func mountedOutside(ts *testscript.TestScript, auditDir string, ids map[[2]uint64]string) []string {
	var leaks []string
	seen := 0
	eachAuditLine(ts, auditDir, func(line []byte) {
		var r struct{ Type, Call, Note string }
		if json.Unmarshal(line, &r) != nil || r.Type != "result" {
			return
		}
		for _, m := range mountedRE.FindAllStringSubmatch(r.Note, -1) {
			seen++
			maj, _ := strconv.ParseUint(m[1], 10, 32)
			mnr, _ := strconv.ParseUint(m[2], 10, 32)
			ino, _ := strconv.ParseUint(m[3], 10, 64)
			if p, ok := ids[[2]uint64{unix.Mkdev(uint32(maj), uint32(mnr)), ino}]; ok {
				leaks = append(leaks, fmt.Sprintf("call %s mounted %s: %s", r.Call, p, r.Note))
			}
		}
	})
	if seen == 0 {
		ts.Fatalf("racesuite: no result record says what was mounted")
	}
	return leaks
}
