package testsupport

import (
	"encoding/binary"
	"errors"
	"testing"
)

// podmanTable is a lock table as Podman 4.3 lays it out, with the bits of
// used set in each group.
func podmanTable(locks int, used ...uint32) []byte {
	raw := make([]byte, podmanLockHeader+len(used)*podmanLockGroup)
	binary.LittleEndian.PutUint16(raw, podmanLockMagic)
	binary.LittleEndian.PutUint32(raw[48:], uint32(len(used)))
	binary.LittleEndian.PutUint32(raw[52:], uint32(locks))
	for g, bits := range used {
		binary.LittleEndian.PutUint32(raw[podmanLockHeader+g*podmanLockGroup:], bits)
		// The mutexes after the bitmap are never counted.
		raw[podmanLockHeader+g*podmanLockGroup+8] = 0xff
	}
	return raw
}

func TestPodmanLocksInUseCountsTheBitmaps(t *testing.T) {
	used, total, err := PodmanLocksInUse(podmanTable(64, 0b1011, 1<<31))
	if err != nil || used != 4 || total != 64 {
		t.Fatalf("got %d of %d, %v; want 4 of 64", used, total, err)
	}
}

func TestPodmanLocksInUseRefusesAnotherFormat(t *testing.T) {
	wrongMagic := podmanTable(64, 1, 1)
	wrongMagic[0] = 0
	version := podmanTable(64, 1, 1)
	version[2] = 1
	for name, raw := range map[string][]byte{
		"empty":                {},
		"short":                make([]byte, 40),
		"another magic":        wrongMagic,
		"another version":      version,
		"more locks than bits": podmanTable(65, 1, 1),
		"a group cut short":    podmanTable(64, 1, 1)[:podmanLockHeader+podmanLockGroup+10],
	} {
		if _, _, err := PodmanLocksInUse(raw); !errors.Is(err, ErrNotPodmanLocks) {
			t.Errorf("%s: got %v, want ErrNotPodmanLocks", name, err)
		}
	}
}

// A lock taken by a creation under way when the table is read is not
// counted as lost; one the table still has when nothing is creating is.
func TestLostSinceLeavesOutCreationsUnderWay(t *testing.T) {
	for _, tt := range []struct {
		before, after LockCount
		want          int
	}{
		{LockCount{Lost: 5}, LockCount{Lost: 5}, 0},
		{LockCount{Lost: 5}, LockCount{Lost: 7}, 2},
		{LockCount{Lost: 5}, LockCount{Lost: 7, Creating: 1}, 1},
		{LockCount{Lost: 6, Creating: 1}, LockCount{Lost: 5}, 0},
		{LockCount{Lost: 5}, LockCount{Lost: 6, Creating: 3}, 0},
	} {
		if got := tt.after.LostSince(tt.before); got != tt.want {
			t.Errorf("%+v since %+v: %d, want %d", tt.after, tt.before, got, tt.want)
		}
	}
}
