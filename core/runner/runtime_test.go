package runner

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestChooseRuntime(t *testing.T) {
	for _, c := range []struct {
		name   string
		crun   string
		cg     cgroups
		cgErr  error
		want   string
		whyHas string
	}{
		{"crun is not installed", "", cgroups{mode: "unified"}, nil, "runc", "not installed"},
		{"unified cgroups take crun", "/usr/bin/crun", cgroups{mode: "unified"}, nil, "crun", "unified"},
		{"legacy cgroups take crun", "/usr/bin/crun", cgroups{mode: "legacy"}, nil, "crun", "legacy"},
		{"hybrid without v2 controllers takes crun", "/usr/bin/crun", cgroups{mode: "hybrid"}, nil, "crun", "hybrid"},
		{"hybrid with a v2 controller keeps runc", "/usr/bin/crun", cgroups{mode: "hybrid", controllers: "hugetlb"}, nil, "runc", "hugetlb"},
		{"unreadable cgroups keep runc", "/usr/bin/crun", cgroups{}, errors.New("no"), "runc", "cannot be read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, why := chooseRuntime(c.crun, c.cg, c.cgErr)
			if got != c.want || !strings.Contains(why, c.whyHas) {
				t.Errorf("chooseRuntime = %q, %q; want %q, with %q", got, why, c.want, c.whyHas)
			}
		})
	}
}

// This machine's cgroups, read as crun reads them, agree with what crun
// itself would say: hybrid with controllers in the v2 tree is the one
// mode it refuses.
func TestReadCgroupsOfThisHost(t *testing.T) {
	cg, err := readCgroups("/sys/fs/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	switch cg.mode {
	case "hybrid":
		data, err := os.ReadFile("/sys/fs/cgroup/unified/cgroup.controllers")
		if err != nil || strings.TrimSpace(string(data)) != cg.controllers {
			t.Errorf("controllers %q, the file says %q (%v)", cg.controllers, data, err)
		}
	case "unified", "legacy":
	default:
		t.Errorf("mode %q", cg.mode)
	}
	if rt, _ := resolveRuntime("runc"); rt != "runc" {
		t.Errorf("a named runtime was changed to %q", rt)
	}
}
