package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/role"
)

// fakeHost stands in for the programs an install runs; the real ones are
// exercised by the boot test (docs/deployment.md).
type fakeHost struct {
	images  map[string]string  // binary content -> tools image ID
	refuse  map[role.Role]bool // role -> its check fails
	checked []string           // "role config" of each check
	loaded  []string
	users   []string // "name create=bool" of each EnsureUser
}

func (h *fakeHost) CheckConfig(binary string, r role.Role, config string) error {
	h.checked = append(h.checked, r.String()+" "+filepath.Base(config))
	if h.refuse[r] {
		return errors.New(r.String() + ": " + config + ":3: unknown key surprise")
	}
	return nil
}

func (h *fakeHost) ToolsImageID(binary string) (string, error) {
	data, err := os.ReadFile(binary)
	if err != nil {
		return "", err
	}
	return h.images[string(data)], nil
}

func (h *fakeHost) LoadToolsImage(binary string) error {
	h.loaded = append(h.loaded, binary)
	return nil
}
func (h *fakeHost) Systemd() bool                  { return false }
func (h *fakeHost) Systemctl(args ...string) error { return errors.New("no systemd here") }
func (h *fakeHost) EnsureUser(name string, create bool) (int, int, error) {
	h.users = append(h.users, fmt.Sprintf("%s create=%v", name, create))
	if name != "tools" {
		return 0, 0, errors.New("user: unknown user " + name)
	}
	return 1234, 1235, nil
}

const (
	imageV1 = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	imageV2 = "sha256:2222222222222222222222222222222222222222222222222222222222222222"
)

type installRig struct {
	t    *testing.T
	root string
	host *fakeHost
}

func newRig(t *testing.T) *installRig {
	return &installRig{t: t, root: t.TempDir(), host: &fakeHost{
		images: map[string]string{"binary v1": imageV1, "binary v2": imageV2},
		refuse: map[role.Role]bool{},
	}}
}

func (r *installRig) install(version string, dryRun bool) (bool, error) {
	r.t.Helper()
	bin := filepath.Join(r.t.TempDir(), "boxmaker")
	if err := os.WriteFile(bin, []byte("binary "+version), 0o755); err != nil {
		r.t.Fatal(err)
	}
	image := imageV1
	if version == "v2" {
		image = imageV2
	}
	in := &Install{
		Layout:    Layout{Root: r.root, Prefix: "/usr/local"},
		NewBinary: bin,
		Roles:     []role.Role{role.Brokerd, role.Bxctl, role.Loopd},
		Configs: []Config{
			{Role: role.Brokerd, Text: "# brokerd\n[runner]\nimage = \"" + image + "\"\n"},
			{Role: role.Loopd, Text: "# loopd " + version + "\n"},
		},
		Host: r.host,
		Out:  &bytes.Buffer{},
	}
	steps, upgrade, err := in.Plan()
	if err != nil {
		return false, err
	}
	var out bytes.Buffer
	if err := Run(&out, "install", steps, dryRun); err != nil {
		in.Abandon()
		return upgrade, err
	}
	return upgrade, nil
}

func (r *installRig) read(host string) string {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.root, host))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// tree lists every path under the root with its mode.
func (r *installRig) tree() []string {
	var out []string
	filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == r.root {
			return err
		}
		fi, _ := os.Lstat(p)
		rel, _ := filepath.Rel(r.root, p)
		out = append(out, fi.Mode().String()+" "+rel)
		return nil
	})
	sort.Strings(out)
	return out
}

func TestADryRunChangesNothing(t *testing.T) {
	r := newRig(t)
	if _, err := r.install("v1", true); err != nil {
		t.Fatal(err)
	}
	if got := r.tree(); len(got) != 0 {
		t.Fatalf("a dry run wrote %v", got)
	}
}

func TestAFirstInstallWritesTheBinaryLinksConfigsHomeAndUnits(t *testing.T) {
	r := newRig(t)
	upgrade, err := r.install("v1", false)
	if err != nil || upgrade {
		t.Fatalf("upgrade %v, %v", upgrade, err)
	}
	want := []string{
		"-rw------- etc/boxmaker/brokerd.toml",
		"-rw------- etc/boxmaker/loopd.toml",
		"-rw-r--r-- etc/systemd/system/boxmaker.target",
		"-rw-r--r-- etc/systemd/system/brokerd.service",
		"-rw-r--r-- etc/systemd/system/gatewayd.service",
		"-rw-r--r-- etc/systemd/system/inferproxy.service",
		"-rw-r--r-- etc/systemd/system/loopd.service",
		"-rw-r--r-- etc/systemd/system/memoryd.service",
		"-rwxr-xr-x usr/local/bin/boxmaker",
		"Lrwxrwxrwx usr/local/bin/brokerd",
		"Lrwxrwxrwx usr/local/bin/bxctl",
		"Lrwxrwxrwx usr/local/bin/loopd",
		"drwx------ etc/boxmaker",
		"drwx------ etc/boxmaker/grants",
		"drwx------ var/lib/boxmaker",
	}
	for _, d := range HomeDirs {
		want = append(want, "drwx------ var/lib/boxmaker/"+d)
	}
	got := []string{}
	for _, l := range r.tree() {
		// Directories made on the way (usr, etc/systemd) are not install's to judge.
		if strings.HasPrefix(l, "d") && !strings.Contains(l, "boxmaker") {
			continue
		}
		got = append(got, l)
	}
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("the installed tree (-want +got):\n%s", diff)
	}
	if link, _ := os.Readlink(filepath.Join(r.root, "usr/local/bin/brokerd")); link != "boxmaker" {
		t.Errorf("brokerd -> %q", link)
	}
	if got := r.read("usr/local/bin/boxmaker"); got != "binary v1" {
		t.Errorf("binary %q", got)
	}
	if diff := cmp.Diff([]string{"brokerd brokerd.toml.boxmaker-new", "loopd loopd.toml.boxmaker-new"}, r.host.checked); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.read("etc/systemd/system/brokerd.service"), "ExecStart=/usr/local/bin/brokerd serve --config /etc/boxmaker/brokerd.toml\n") {
		t.Error("brokerd.service does not start the installed brokerd")
	}
}

// An upgrade replaces the binary, keeps every config the owner may have
// changed, moves only the tools image install pinned, and checks every
// config with the new binary first.
func TestAnUpgradeKeepsConfigsAndFollowsOnlyThePinnedImage(t *testing.T) {
	r := newRig(t)
	if _, err := r.install("v1", false); err != nil {
		t.Fatal(err)
	}
	loopd := filepath.Join(r.root, "etc/boxmaker/loopd.toml")
	if err := os.WriteFile(loopd, []byte("# the owner's loopd\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.host.checked = nil
	upgrade, err := r.install("v2", false)
	if err != nil || !upgrade {
		t.Fatalf("upgrade %v, %v", upgrade, err)
	}
	if got := r.read("usr/local/bin/boxmaker"); got != "binary v2" {
		t.Errorf("binary %q", got)
	}
	if got := r.read("etc/boxmaker/loopd.toml"); got != "# the owner's loopd\n" {
		t.Errorf("loopd.toml was changed: %q", got)
	}
	if got, want := r.read("etc/boxmaker/brokerd.toml"), "# brokerd\n[runner]\nimage = \""+imageV2+"\"\n"; got != want {
		t.Errorf("brokerd.toml %q, want %q", got, want)
	}
	if diff := cmp.Diff([]string{"brokerd brokerd.toml.boxmaker-new", "loopd loopd.toml"}, r.host.checked); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
	// An image the owner chose is theirs.
	mine := "# brokerd\n[runner]\nimage = \"sha256:" + strings.Repeat("3", 64) + "\"\n"
	if err := os.WriteFile(filepath.Join(r.root, "etc/boxmaker/brokerd.toml"), []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.install("v1", false); err != nil {
		t.Fatal(err)
	}
	if got := r.read("etc/boxmaker/brokerd.toml"); got != mine {
		t.Errorf("the owner's image was replaced: %q", got)
	}
}

// A config the new binary refuses stops the upgrade before anything
// installed changes: the old binary, configs and units stay, and nothing
// staged is left behind.
func TestAFailedCheckLeavesTheOldVersionInstalled(t *testing.T) {
	r := newRig(t)
	if _, err := r.install("v1", false); err != nil {
		t.Fatal(err)
	}
	before := r.tree()
	brokerd := r.read("etc/boxmaker/brokerd.toml")
	r.host.refuse[role.Loopd] = true
	_, err := r.install("v2", false)
	var failed *CheckFailed
	if !errors.As(err, &failed) || failed.Role != role.Loopd {
		t.Fatalf("got %v, want loopd's check to fail", err)
	}
	if !strings.Contains(err.Error(), "nothing installed was changed, and the running version goes on") {
		t.Errorf("the error does not say the old version goes on: %v", err)
	}
	if diff := cmp.Diff(before, r.tree()); diff != "" {
		t.Errorf("the tree changed (-before +after):\n%s", diff)
	}
	if got := r.read("usr/local/bin/boxmaker"); got != "binary v1" {
		t.Errorf("binary %q", got)
	}
	if got := r.read("etc/boxmaker/brokerd.toml"); got != brokerd {
		t.Errorf("brokerd.toml changed: %q", got)
	}
	if len(r.host.loaded) != 1 {
		t.Errorf("the new tools image was loaded although a check failed: %v", r.host.loaded)
	}
}

func TestInstallRefusesToReplaceAFileThatIsNotItsOwn(t *testing.T) {
	r := newRig(t)
	p := filepath.Join(r.root, "usr/local/bin/bxctl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("someone's bxctl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := r.install("v1", false); err == nil || !strings.Contains(err.Error(), "is not a symbolic link; not replacing it") {
		t.Fatalf("got %v", err)
	}
	if got := r.tree(); len(got) != 4 { // usr, usr/local, usr/local/bin, bxctl
		t.Errorf("install wrote %v", got)
	}
}

func TestUninstallKeepsTheHomeAndConfigsUnlessNamed(t *testing.T) {
	r := newRig(t)
	if _, err := r.install("v1", false); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(r.root, UnitDir, "other.service")
	if err := os.WriteFile(theirs, []byte("[Unit]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := &Uninstall{Layout: Layout{Root: r.root, Prefix: "/usr/local"}, Roles: []role.Role{role.Brokerd, role.Bxctl, role.Loopd}, Host: r.host}
	if err := Run(&bytes.Buffer{}, "uninstall", u.Plan(), false); err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, l := range r.tree() {
		if !strings.HasPrefix(l, "d") {
			left = append(left, l)
		}
	}
	want := []string{"-rw------- etc/boxmaker/brokerd.toml", "-rw------- etc/boxmaker/loopd.toml", "-rw-r--r-- etc/systemd/system/other.service"}
	if diff := cmp.Diff(want, left); diff != "" {
		t.Errorf("left after uninstall (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(r.root, Home, "audit")); err != nil {
		t.Errorf("the home went: %v", err)
	}
	u.RemoveHome, u.RemoveConfig = true, true
	if err := Run(&bytes.Buffer{}, "uninstall", u.Plan(), false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{Home, ConfigDir} {
		if _, err := os.Stat(filepath.Join(r.root, p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there: %v", p, err)
		}
	}
}

// A new brokerd.toml names the tools' user as [runner] owner_uid and
// owner_gid, with the ids install found for it (D521): an install that
// left them 0 would have every file tool refused; an existing config is
// kept as it is, and a user that cannot be had stops the install before
// anything is installed.
func TestANewBrokerdConfigNamesTheToolsUser(t *testing.T) {
	r := newRig(t)
	bin := filepath.Join(t.TempDir(), "boxmaker")
	if err := os.WriteFile(bin, []byte("binary v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	plan := func(user string) error {
		in := &Install{
			Layout:    Layout{Root: r.root, Prefix: "/usr/local"},
			NewBinary: bin,
			Roles:     []role.Role{role.Brokerd},
			Configs: []Config{{Role: role.Brokerd, Text: "owner_uid = 0\n", ForOwner: func(uid, gid int) string {
				return fmt.Sprintf("owner_uid = %d\nowner_gid = %d\n", uid, gid)
			}}},
			User: user, CreateUser: true,
			Host: r.host,
			Out:  &bytes.Buffer{},
		}
		steps, _, err := in.Plan()
		if err != nil {
			return err
		}
		if err := Run(&bytes.Buffer{}, "install", steps, false); err != nil {
			in.Abandon()
			return err
		}
		return nil
	}
	if err := plan("nobody-here"); err == nil {
		t.Fatal("an install whose tools' user cannot be had went on")
	}
	if _, err := os.Stat(filepath.Join(r.root, "usr/local/bin/boxmaker")); err == nil {
		t.Error("the failed install left its binary installed")
	}
	if err := plan("tools"); err != nil {
		t.Fatal(err)
	}
	if got := r.read("etc/boxmaker/brokerd.toml"); got != "owner_uid = 1234\nowner_gid = 1235\n" {
		t.Errorf("brokerd.toml %q", got)
	}
	// Under --root no user is ever made on the real host: looked up only.
	if diff := cmp.Diff([]string{"nobody-here create=false", "tools create=false"}, r.host.users); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(filepath.Join(r.root, "etc/boxmaker/brokerd.toml"), []byte("owner_uid = 1000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := plan("tools"); err != nil {
		t.Fatal(err)
	}
	if got := r.read("etc/boxmaker/brokerd.toml"); got != "owner_uid = 1000\n" {
		t.Errorf("an upgrade rewrote the owner's brokerd.toml: %q", got)
	}
}
