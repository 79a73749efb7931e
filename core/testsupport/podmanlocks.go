package testsupport

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// PodmanLockFile is where Podman 4.3's SHM lock manager keeps its table
// (rootful: the default num_locks of containers.conf, 2048).
const PodmanLockFile = "/dev/shm/libpod_lock"

// guarded are the tests that hold podmanLocksGuard alone.
var guarded = struct {
	sync.Mutex
	tests map[testing.TB]bool
}{tests: map[testing.TB]bool{}}

// The table, as Podman 4.3's libpod/lock/shm/shm_lock.h lays it out on
// x86-64: a uint16 magic (0x87D1), a uint16 that must be 0, the
// segment's pthread mutex (40 bytes, at offset 8), num_bitmaps and
// num_locks (uint32 each), then num_bitmaps groups of a uint32 bitmap,
// 4 bytes of padding and 32 mutexes (1288 bytes). A set bit is a lock in
// use: by a container, a pod or a volume, or lost by a podman process
// killed between taking it and recording its owner.
const (
	podmanLockMagic  = 0x87D1
	podmanLockHeader = 56
	podmanLockGroup  = 4 + 4 + 32*40
)

// ErrNotPodmanLocks says the file is not Podman 4.3's lock table.
var ErrNotPodmanLocks = errors.New("not Podman 4.3's SHM lock table")

// PodmanLocksInUse counts the set bits of Podman's lock table in raw (the
// bytes of PodmanLockFile) and says how many locks it has.
func PodmanLocksInUse(raw []byte) (used, total int, err error) {
	if len(raw) < podmanLockHeader {
		return 0, 0, fmt.Errorf("%w: %d bytes", ErrNotPodmanLocks, len(raw))
	}
	le := binary.LittleEndian
	magic, unused := le.Uint16(raw[0:]), le.Uint16(raw[2:])
	groups, locks := int(le.Uint32(raw[48:])), int(le.Uint32(raw[52:]))
	switch {
	case magic != podmanLockMagic || unused != 0:
		return 0, 0, fmt.Errorf("%w: magic %#x, version %d", ErrNotPodmanLocks, magic, unused)
	case groups <= 0 || locks <= 0 || locks > 32*groups || len(raw) != podmanLockHeader+groups*podmanLockGroup:
		return 0, 0, fmt.Errorf("%w: %d locks in %d groups, %d bytes", ErrNotPodmanLocks, locks, groups, len(raw))
	}
	for g := range groups {
		used += bits.OnesCount32(le.Uint32(raw[podmanLockHeader+g*podmanLockGroup:]))
	}
	return used, locks, nil
}

// LockCount is one reading of Podman's lock table.
type LockCount struct {
	// Lost is how many locks are in use with no container, pod or volume
	// that Podman lists to hold them.
	Lost int
	// Creating is how many podman processes were creating a container,
	// pod or volume (a run or create command) as the table was read: each
	// may hold a lock it has not recorded yet, which Lost counts.
	Creating int
}

// LostSince is how many locks were surely lost between the reading before
// and c: what c counts beyond before, less the locks of creations under
// way at c. A creation under way at before makes it smaller, never
// larger, so someone else's container starting never counts as lost.
func (c LockCount) LostSince(before LockCount) int {
	return max(0, c.Lost-c.Creating-before.Lost)
}

// CountLostPodmanLocks reads Podman's lock table and the containers, pods
// and volumes Podman lists: the locks podman processes lost. Other
// engineers' containers come and go meanwhile, so it reads until two
// readings in a row agree. Its error wraps ErrNotPodmanLocks (or the
// file's) when the table cannot be read as Podman 4.3's.
func CountLostPodmanLocks() (LockCount, error) {
	read := func() (LockCount, string, error) {
		creating := podmansCreating()
		raw, err := os.ReadFile(PodmanLockFile)
		if err != nil {
			return LockCount{}, "", err
		}
		used, _, err := PodmanLocksInUse(raw)
		if err != nil {
			return LockCount{}, "", fmt.Errorf("%s: %w", PodmanLockFile, err)
		}
		var owners []string
		for _, list := range [][]string{{"ps", "-aq", "--no-trunc"}, {"pod", "ps", "-q", "--no-trunc"}, {"volume", "ls", "-q"}} {
			out, err := exec.Command("podman", list...).Output()
			if err != nil {
				return LockCount{}, "", fmt.Errorf("podman %s: %w", strings.Join(list, " "), err)
			}
			owners = append(owners, strings.Fields(string(bytes.TrimSpace(out)))...)
		}
		// The table is shared by every store: brokerd's own stores'
		// containers hold locks too. A store whose home is being removed
		// lists nothing, and holds nothing once its containers are gone.
		for _, root := range brokerdStores() {
			if out, err := exec.Command("podman", "--root", root, "ps", "-aq", "--no-trunc").Output(); err == nil {
				owners = append(owners, strings.Fields(string(bytes.TrimSpace(out)))...)
			}
		}
		slices.Sort(owners)
		return LockCount{Lost: used - len(owners), Creating: max(creating, podmansCreating())}, strings.Join(owners, " "), nil
	}
	c, owners, err := read()
	for range 50 {
		if err != nil {
			return LockCount{}, err
		}
		time.Sleep(100 * time.Millisecond)
		again, againOwners, err2 := read()
		if err2 == nil && again.Lost == c.Lost && againOwners == owners {
			again.Creating = max(again.Creating, c.Creating)
			return again, nil
		}
		c, owners, err = again, againOwners, err2
	}
	return LockCount{}, errors.New("Podman's locks and containers did not hold still for 5 s (the machine is busy)")
}

// brokerdStores are the roots of brokerd's own Podman stores on this
// host, each named by a link in runner.StoreRunRoot/<instance>/root
// (core/runner/store.go; the runner's tests import this package, so the
// path is written here again) whose store still has its database.
func brokerdStores() []string {
	links, _ := filepath.Glob("/run/boxmaker-podman/*/root")
	var roots []string
	for _, l := range links {
		root, err := os.Readlink(l)
		if err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, "libpod", "bolt_state.db")); err == nil {
			roots = append(roots, root)
		}
	}
	return roots
}

// podmansCreating counts the podman processes whose arguments hold the
// word run or create (podman run, podman create, podman pod create,
// podman volume create).
func podmansCreating() int {
	path, err := exec.LookPath("podman")
	if err != nil {
		return 0
	}
	want, err := os.Stat(path)
	if err != nil {
		return 0
	}
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		dir := filepath.Join("/proc", e.Name())
		if exe, err := os.Stat(filepath.Join(dir, "exe")); err != nil || !os.SameFile(want, exe) {
			continue
		}
		raw, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		args := strings.Split(string(raw), "\x00")
		if slices.Contains(args, "run") || slices.Contains(args, "create") {
			n++
		}
	}
	return n
}

// podmanLocksGuard is the file whose flock keeps a test that counts lost
// locks apart from the suites that lose some by design: those hold it
// shared while they run (LosingPodmanLocks), and a counting test holds it
// alone (LostPodmanLocks), so a crash suite of another package running at
// the same time (go test runs packages in parallel) never counts as the
// counting test's loss.
var podmanLocksGuard = filepath.Join(os.TempDir(), "boxmaker-podman-locks.lock")

func lockGuard(how int) (func(), error) {
	f, err := os.OpenFile(podmanLocksGuard, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// LosingPodmanLocks is for a suite that loses Podman's locks by design (it
// SIGKILLs podman clients): it waits until no test counts them and holds
// them off until release is called.
func LosingPodmanLocks() (release func(), err error) { return lockGuard(syscall.LOCK_SH) }

// CountingPodmanLocks is for a test that counts lost locks without a
// testing.TB (a script): it waits until no suite that loses locks by
// design runs, and holds them off until release is called.
func CountingPodmanLocks() (release func(), err error) { return lockGuard(syscall.LOCK_EX) }

// LostPodmanLocks is CountLostPodmanLocks for a test. The first call of a
// test waits until no suite that loses locks by design runs, and keeps
// them from starting until the test ends. It skips the test
// when the machine's lock table is not Podman 4.3's (another version,
// another lock manager, not root), so that a count it cannot read never
// passes as none lost, and fails it when Podman cannot list its
// containers or the machine does not hold still.
func LostPodmanLocks(tb testing.TB) LockCount {
	tb.Helper()
	guarded.Lock()
	if !guarded.tests[tb] {
		release, err := CountingPodmanLocks()
		if err != nil {
			guarded.Unlock()
			tb.Fatalf("cannot keep the suites that lose Podman's locks apart: %v", err)
		}
		guarded.tests[tb] = true
		tb.Cleanup(func() {
			release()
			guarded.Lock()
			delete(guarded.tests, tb)
			guarded.Unlock()
		})
	}
	guarded.Unlock()
	n, err := CountLostPodmanLocks()
	switch {
	case errors.Is(err, ErrNotPodmanLocks), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		tb.Skipf("cannot count Podman's lost locks: %v", err)
	case err != nil:
		tb.Fatalf("cannot count Podman's lost locks: %v", err)
	}
	return n
}
