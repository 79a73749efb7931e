package deploy

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
	"boxmaker/core/loop"
	"boxmaker/core/testsupport"
)

// The boot test: docs/deployment.md run for real in a Debian 12 system
// that boots with systemd, in a Podman container. See the doc's last
// section for what it covers and what it costs.

// bootPackages are what debootstrap installs beyond minbase: systemd as
// init, what the doc's first block installs (so that block runs offline)
// with the network pieces Podman wants (without netavark the Podman
// packages fail to configure in debootstrap), and dbus for Podman's
// systemd cgroup manager.
var bootPackages = []string{"systemd", "systemd-sysv", "dbus", "dbus-user-session", "podman", "runc", "uidmap", "slirp4netns", "netavark", "aardvark-dns", "busybox-static", "procps", "ca-certificates"}

const bootSuite = "bookworm"

// bootCache is where the debootstrap tree is kept between runs on this
// machine (never in the repository).
const bootCache = "/var/cache/boxmaker-boottest"

func TestBootDebian12(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow Podman suite (66 s at load 15, a Debian boot): go test without -short runs it")
	}
	if os.Getenv("BOXMAKER_BOOT_TEST") == "0" {
		t.Skip("BOXMAKER_BOOT_TEST=0")
	}
	for _, prog := range []string{"podman", "debootstrap"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Fatalf("the boot test needs %s (scripts/setup.sh installs it): %v", prog, err)
		}
	}
	if os.Geteuid() != 0 {
		t.Fatal("the boot test needs root (debootstrap, and a privileged container for systemd and the nested Podman)")
	}
	image := bootImage(t)
	tmp := t.TempDir()
	v1, err := testsupport.StaticBinaryVersion("boot-1")
	if err != nil {
		t.Fatal(err)
	}
	v2, err := testsupport.StaticBinaryVersion("boot-2")
	if err != nil {
		t.Fatal(err)
	}
	name := "boxmaker-boottest-" + randomHex(6)
	vm := &bootedSystem{t: t, name: name}
	vm.boot(image, map[string]string{v1: "/root/boxmaker/boxmaker", v2: "/root/boxmaker-new/boxmaker"})

	standinScript := filepath.Join(tmp, "standin.json")
	if err := os.WriteFile(standinScript, []byte(bootStandinScript), 0o644); err != nil {
		t.Fatal(err)
	}
	vm.copyIn(standinScript, "/root/standin.json")
	// llama-server's place, inside the system's own network namespace.
	vm.run("", "systemd-run --unit=llama-standin --property=Type=exec /root/boxmaker/boxmaker llama-standin --listen 127.0.0.1:8080 --model qwen3.5 --script /root/standin.json")

	const token = "boot-test-token-6f1d"
	const llamaKey = "boot-test-llama-key-93ac"
	var pidsBeforeUpgrade string
	checks := map[string]func(out string){
		"installed": func(out string) {
			want(t, out, `install: boxmaker boot-1 is installed\. What is left for you:`)
			want(t, out, `(?m)^  1\. Write grants in /etc/boxmaker/grants`)
			want(t, out, `(?m)^boxmaker boot-1 \(commit `)
			vm.run("", "test \"$(stat -c %a /var/lib/boxmaker)\" = 700 && test \"$(stat -c %a /etc/boxmaker/brokerd.toml)\" = 600 && test \"$(stat -c %a /etc/boxmaker/grants)\" = 700")
			vm.run("", "id boxmaker")
			// brokerd acts for that user: install wrote its ids as the owner.
			vm.run("", `grep -qx "owner_uid = $(id -u boxmaker)" /etc/boxmaker/brokerd.toml && grep -qx "owner_gid = $(id -g boxmaker)" /etc/boxmaker/brokerd.toml`)
			// Install never overwrites a config: a second install keeps the owner's edit.
			vm.run("", "echo '# the owner was here' >> /etc/boxmaker/memoryd.toml")
		},
		"model": func(string) {
			// What a person reads off the selftest and types into loopd.toml.
			sha, nctx, slots := standinProps(t)
			vm.run("", fmt.Sprintf(`sed -i -e 's|^chat_template_sha256 = .*|chat_template_sha256 = "%s"|' -e 's|^n_ctx_per_slot = .*|n_ctx_per_slot = %d|' -e 's|^slots = .*|slots = %d|' /etc/boxmaker/loopd.toml`, sha, nctx, slots))
		},
		"selftest": func(out string) { want(t, out, `(?m)^selftest: ok$`) },
		"started": func(out string) {
			want(t, out, `(?m)^active\nactive\nactive\nactive$`)
			for _, u := range []string{"brokerd", "memoryd", "inferproxy", "loopd"} {
				// Type=notify: "running" only after READY=1; the daemon's own start line is in the journal.
				vm.run("", "test \"$(systemctl show -p SubState --value "+u+".service)\" = running")
			}
			vm.waitJournal("brokerd.service", "brokerd: serving tools on ")
			vm.waitJournal("loopd.service", "loopd: serving on /var/lib/boxmaker/run/loop/loop.sock")
			// The model server refuses a request without the key (so the
			// selftest and chats through inferproxy carry it).
			want(t, vm.run("", `exec 3<>/dev/tcp/127.0.0.1/8080
printf 'POST /v1/chat/completions HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}' >&3
head -n 1 <&3`), `^HTTP/1\.[01] 401 `)
			// gatewayd: skipped by its conditions, not failed (install writes no gatewayd.toml).
			vm.run("", "systemctl show -p ActiveState,ConditionResult gatewayd.service | tr '\\n' ' ' | grep -q 'ActiveState=inactive ConditionResult=no'")
			vm.gatewaydThroughItsUnit(token)
			vm.chat()
		},
		"killed": func(out string) {
			want(t, out, `(?m)^active\nNRestarts=1$`)
		},
		"stopped": func(out string) {
			want(t, out, `(?m)^inactive\ninactive\ninactive\ninactive$`)
			want(t, out, `"type":"stop"`)
			want(t, out, `(?m)^audit: ok`)
		},
		"upgraded": func(out string) {
			want(t, out, `install: upgraded to boxmaker boot-2`)
			want(t, out, `(?m)^boxmaker boot-2 \(commit `)
			want(t, out, `(?m)^active\nactive\nactive\nactive$`)
			if got := vm.run("", "systemctl show -p MainPID --value brokerd.service loopd.service"); got == pidsBeforeUpgrade {
				t.Fatalf("the upgrade did not restart brokerd and loopd (main pids %q)", got)
			}
			vm.run("", "grep -q '^# the owner was here' /etc/boxmaker/memoryd.toml")
			// The pinned tools image followed the binary, and Podman has it.
			vm.run("", "img=$(sed -n 's/^image = \"\\(.*\\)\"$/\\1/p' /etc/boxmaker/brokerd.toml) && podman image exists \"$img\" && test \"$img\" = \"$(/root/boxmaker-new/boxmaker tools-image --no-load --out /tmp/x.tar 2>/dev/null)\"")
			vm.chat()
		},
		"uninstalled": func(out string) {
			vm.run("", "! test -e /usr/local/bin/boxmaker && ! test -e /etc/systemd/system/brokerd.service && test -s /etc/boxmaker/brokerd.toml && test -d /var/lib/boxmaker/audit")
		},
	}
	// Before the upgrade that works, one that must not: a config the new
	// binary refuses leaves the old binary installed and its daemons running.
	before := map[string]func(){
		"upgraded": func() {
			vm.run("", "systemctl start boxmaker.target")
			pids := vm.run("", "systemctl show -p MainPID --value brokerd.service loopd.service")
			pidsBeforeUpgrade = pids
			vm.run("", "echo 'surprise = 1' >> /etc/boxmaker/loopd.toml")
			out, err := vm.exec("", "cd /root/boxmaker-new && ./boxmaker install", "")
			if err == nil {
				t.Fatalf("an upgrade over a config the new binary refuses went through:\n%s", out)
			}
			want(t, out, `the new binary's loopd refuses /etc/boxmaker/loopd.toml: .*surprise.*nothing installed was changed, and the running version goes on`)
			want(t, vm.run("", "boxmaker version"), `boxmaker boot-1 `)
			if got := vm.run("", "systemctl show -p MainPID --value brokerd.service loopd.service"); got != pids {
				t.Fatalf("the daemons were restarted by a failed upgrade: %q, then %q", pids, got)
			}
			vm.run("", "! ls /usr/local/bin/*boxmaker-new /etc/boxmaker/*boxmaker-new 2>/dev/null")
			vm.run("", "sed -i '/^surprise = 1$/d' /etc/boxmaker/loopd.toml")
		},
	}

	root, err := testsupport.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlocks(t, filepath.Join(root, "docs", "deployment.md"))
	for _, b := range blocks {
		if f := before[b.name]; f != nil {
			f()
		}
		stdin := ""
		switch b.stdin {
		case "token":
			stdin = token
		case "llamakey":
			stdin = llamaKey
			// From here on the model server, like a llama-server started
			// with --api-key, refuses every request without the key: the
			// conversations after this prove inferproxy read it from its
			// credential through core/secrets.
			vm.run("", "systemctl stop llama-standin.service && systemd-run --unit=llama-standin --property=Type=exec /root/boxmaker/boxmaker llama-standin --listen 127.0.0.1:8080 --model qwen3.5 --script /root/standin.json --api-key "+llamaKey)
		}
		out, err := vm.exec("", b.script, stdin)
		t.Logf("docs/deployment.md:%d (%s):\n%s", b.line, b.name, out)
		if err != nil {
			vm.dumpJournal()
			t.Fatalf("docs/deployment.md:%d: the block failed: %v\n%s", b.line, err, out)
		}
		if f := checks[b.name]; f != nil {
			f(out)
			delete(checks, b.name)
		}
	}
	for name := range checks {
		t.Errorf("docs/deployment.md has no block marked boot-test: %s", name)
	}
}

// bootStandinScript: the selftest's probe, gatewayd's DM, then one
// conversation that reads a granted file and writes a granted one, played
// once per chat.
const bootStandinScript = `{"turns": [
  {"when": "probe: call the echo tool", "tool_calls": [{"name": "echo", "arguments": {"text": "ok"}}]},
  {"when": "probe: echo answered ok", "content": "ok"},
  {"match": "^hello from mattermost$", "role": "user", "content": "Hello from Box."},
  {"tool_calls": [{"name": "read_file", "arguments": {"path": "/srv/notes/hello.txt"}}]},
  {"tool_calls": [{"name": "write_file", "arguments": {"path": "/srv/notes/out/written.txt", "content": "written by a tool\n"}}]},
  {"content": "Done."},
  {"tool_calls": [{"name": "read_file", "arguments": {"path": "/srv/notes/hello.txt"}}]},
  {"tool_calls": [{"name": "write_file", "arguments": {"path": "/srv/notes/out/written.txt", "content": "written by a tool\n"}}]},
  {"content": "Done."}
]}`

type docBlock struct {
	line   int
	name   string // from <!-- boot-test: NAME --> above the block
	stdin  string // from <!-- boot-test: stdin=WHAT -->
	script string
}

var markRE = regexp.MustCompile(`^<!-- boot-test: (.*) -->$`)

// docBlocks are the doc's ```sh blocks, in order.
func docBlocks(t *testing.T, path string) []docBlock {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	lines := strings.Split(string(data), "\n")
	mark := ""
	for i := 0; i < len(lines); i++ {
		if m := markRE.FindStringSubmatch(lines[i]); m != nil {
			mark = m[1]
			continue
		}
		if lines[i] != "```sh" {
			if strings.TrimSpace(lines[i]) != "" {
				mark = ""
			}
			continue
		}
		b := docBlock{line: i + 1}
		if v, ok := strings.CutPrefix(mark, "stdin="); ok {
			b.stdin = v
		} else {
			b.name = mark
		}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		b.script = strings.Join(body, "\n") + "\n"
		blocks = append(blocks, b)
		mark = ""
	}
	if len(blocks) == 0 {
		t.Fatalf("%s has no sh block", path)
	}
	return blocks
}

// bootImage is the Podman image of the debootstrap tree: built once per
// package list (under a lock) and kept, with the tree, in bootCache.
func bootImage(t *testing.T) string {
	sum := sha256.Sum256([]byte(bootSuite + " " + strings.Join(bootPackages, ",") + " " + debianMirror(t)))
	key := hex.EncodeToString(sum[:6])
	image := "localhost/boxmaker-boottest:" + key
	if err := os.MkdirAll(bootCache, 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(bootCache, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if exec.Command("podman", "image", "exists", image).Run() == nil {
		return image
	}
	tree := filepath.Join(bootCache, key)
	if _, err := os.Stat(filepath.Join(tree, "sbin", "init")); err != nil {
		building := tree + ".building"
		unmountUnder(building)
		os.RemoveAll(building)
		start := time.Now()
		cmd := exec.Command("debootstrap", "--variant=minbase", "--include="+strings.Join(bootPackages, ","), bootSuite, building, debianMirror(t))
		out, err := cmd.CombinedOutput()
		unmountUnder(building) // debootstrap mounts /proc and /sys in the tree; a failure may leave them
		if err != nil {
			os.RemoveAll(building)
			t.Fatalf("debootstrap: %v\n%s", err, tail(out, 40))
		}
		if err := os.Rename(building, tree); err != nil {
			t.Fatal(err)
		}
		t.Logf("debootstrap built %s in %s", tree, time.Since(start).Round(time.Second))
	}
	// The tree's own podman.service and friends would fail on boot; the
	// daemons' Podman is the one brokerd runs.
	tar := exec.Command("tar", "-C", tree, "--exclude=./proc/*", "--exclude=./sys/*", "--exclude=./dev/*", "-c", ".")
	imp := exec.Command("podman", "import", "--quiet", "-", image)
	pipe, err := tar.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	imp.Stdin = pipe
	if err := tar.Start(); err != nil {
		t.Fatal(err)
	}
	if out, err := imp.CombinedOutput(); err != nil {
		tar.Process.Kill()
		tar.Wait()
		t.Fatalf("podman import: %v\n%s", err, out)
	}
	if err := tar.Wait(); err != nil {
		t.Fatalf("tar of %s: %v", tree, err)
	}
	return image
}

// debianMirror is the archive this machine's apt uses (its first deb URI
// for Debian), so the test names no host of its own.
func debianMirror(t *testing.T) string {
	for _, f := range []string{"/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			fields := strings.Fields(line)
			switch {
			case len(fields) >= 2 && fields[0] == "URIs:" && strings.HasSuffix(fields[1], "/debian"):
				return fields[1]
			case len(fields) >= 3 && fields[0] == "deb" && strings.HasSuffix(fields[1], "/debian"):
				return fields[1]
			}
		}
	}
	t.Fatal("no Debian archive in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list")
	return ""
}

func unmountUnder(dir string) {
	data, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return
	}
	var mounts []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && strings.HasPrefix(f[1], dir+"/") {
			mounts = append(mounts, f[1])
		}
	}
	for i := len(mounts) - 1; i >= 0; i-- {
		syscall.Unmount(mounts[i], syscall.MNT_DETACH)
	}
}

// standinProps is what the stand-in's /props reports, as loopd's
// selftest would print it.
func standinProps(t *testing.T) (sha string, nctx, slots int) {
	srv, err := llamastandin.Start(llamastandin.Options{Model: "qwen3.5"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := &loop.Client{URL: srv.URL(), Model: "qwen3.5", Timeout: 10 * time.Second}
	p, err := c.Props(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256([]byte(p.ChatTemplate))
	return hex.EncodeToString(s[:]), p.NCtx, p.TotalSlots
}

// bootedSystem is the container that boots Debian with systemd.
type bootedSystem struct {
	t    *testing.T
	name string
}

// boot starts the container and waits for systemd to finish booting.
// --privileged and a cgroup namespace of its own are what systemd and the
// nested rootful Podman need here (docs/deployment.md, "The boot test");
// Podman's storage inside is a tmpfs (overlay cannot stack on the
// container's own overlay root), and so is the home, which holds
// brokerd's own store (docs/runner.md, "Store"), and /srv, where the grants point:
// the runner gives the tools the owner's files through idmapped mounts,
// which the container's overlay root refuses (a host's ext4 takes them).
func (s *bootedSystem) boot(image string, files map[string]string) {
	t := s.t
	args := []string{"run", "-d", "--name", s.name, "--label", "boxmaker-boottest=" + s.name,
		"--privileged", "--cgroupns=private", "--systemd=always", "--runtime", "runc",
		"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096",
		"--tmpfs", "/var/lib/containers:rw,mode=0700", "--tmpfs", "/var/lib/boxmaker:rw,mode=0700",
		"--tmpfs", "/srv:rw,mode=0755", "--hostname", "boottest",
		image, "/sbin/init"}
	if out, err := exec.Command("podman", args...).CombinedOutput(); err != nil {
		t.Fatalf("podman run: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		// By name and only ours; the tools' containers inside go with it.
		if out, err := exec.Command("podman", "rm", "--force", "--time", "0", s.name).CombinedOutput(); err != nil {
			t.Errorf("podman rm %s: %v\n%s", s.name, err, out)
		}
	})
	for host, guest := range files {
		s.run("", "mkdir -p "+filepath.Dir(guest))
		s.copyIn(host, guest)
	}
	// A booted host's / is a shared mount (systemd makes it so as PID 1);
	// in Podman's container it is private, and systemd's credentials
	// (made in a namespace of their own, then propagated) arrive empty.
	s.run("", "mount --make-rshared /")
	out, _ := s.exec("", "systemctl is-system-running --wait", "")
	if state := strings.TrimSpace(out); state != "running" && state != "degraded" {
		t.Fatalf("systemd did not boot: %q", out)
	}
	t.Logf("booted %s: %s", s.name, strings.TrimSpace(out))
}

func (s *bootedSystem) copyIn(host, guest string) {
	if out, err := exec.Command("podman", "cp", host, s.name+":"+guest).CombinedOutput(); err != nil {
		s.t.Fatalf("podman cp %s: %v\n%s", host, err, out)
	}
}

// exec runs script with bash -e inside, as root, and returns its output.
func (s *bootedSystem) exec(dir, script, stdin string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := []string{"exec", "-i"}
	if dir != "" {
		args = append(args, "-w", dir)
	}
	args = append(args, s.name, "bash", "-e", "-o", "pipefail", "-c", script)
	cmd := exec.CommandContext(ctx, "podman", args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// run is exec that must succeed; it returns the output trimmed.
func (s *bootedSystem) run(dir, script string) string {
	s.t.Helper()
	out, err := s.exec(dir, script, "")
	if err != nil {
		s.dumpJournal()
		s.t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return strings.TrimSpace(out)
}

func (s *bootedSystem) waitJournal(unit, text string) {
	s.t.Helper()
	for range 50 {
		if out, _ := s.exec("", "journalctl -u "+unit+" --no-pager -o cat", ""); strings.Contains(out, text) {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.dumpJournal()
	s.t.Fatalf("%s never printed %q", unit, text)
}

func (s *bootedSystem) dumpJournal() {
	out, _ := s.exec("", "journalctl --no-pager -n 120 -o short-monotonic; systemctl --failed --no-pager", "")
	s.t.Logf("the system's journal:\n%s", out)
}

// chat is one conversation through the installed daemons: the model
// reads a granted file and writes into a granted directory, each call
// decided by brokerd and run in a container by the Podman inside.
func (s *bootedSystem) chat() {
	t := s.t
	out, err := s.exec("", "rm -f /srv/notes/out/written.txt; bxctl chat", "read and write\n")
	if err != nil {
		s.dumpJournal()
		t.Fatalf("bxctl chat: %v\n%s", err, out)
	}
	want(t, out, `\[tool \S+ read_file\] \{"path":"/srv/notes/hello.txt"\}`)
	if strings.Contains(out, "denied") || strings.Contains(out, "runner-unavailable") {
		s.dumpJournal()
		t.Fatalf("a granted call did not run:\n%s", out)
	}
	want(t, out, `(?m)^Done\.$`)
	got := s.run("", "cat /srv/notes/out/written.txt; stat -c '%U %a' /srv/notes/out/written.txt")
	if !strings.HasPrefix(got, "written by a tool\n") {
		t.Fatalf("the write_file call left %q", got)
	}
	// The tools act for the user install named (D521): what they write is
	// that user's, never root's.
	if owner := strings.Fields(strings.TrimPrefix(got, "written by a tool\n")); len(owner) == 0 || owner[0] != "boxmaker" {
		t.Fatalf("the tool's file belongs to %q, not to the tools' user boxmaker", got)
	}
	t.Logf("the tool's file: %s", got)
}

// gatewaydThroughItsUnit starts the installed gatewayd.service, as it
// is, against the fake Mattermost (core/deploy/testdata/boottest/fakemm) run in the
// system: the token comes through the unit's LoadCredentialEncrypted= and
// core/secrets, systemd sees READY=1 once gatewayd is connected, and a
// direct message is answered by the installed loopd. Outside the unit
// there is no credential, and gatewayd refuses to start.
func (s *bootedSystem) gatewaydThroughItsUnit(token string) {
	t := s.t
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakemm")
	cmd := exec.Command("go", "build", "-trimpath", "-o", fake, "./testdata/boottest/fakemm")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build fakemm: %v\n%s", err, out)
	}
	s.copyIn(fake, "/usr/local/lib/boxmaker-fakemm")
	s.run("", "systemd-run --unit=fakemm --property=Type=exec /usr/local/lib/boxmaker-fakemm --bot-token "+token+" --info /run/fakemm.json --control 127.0.0.1:8066")
	var info struct{ URL, Bot, Ann string }
	for i := 0; ; i++ {
		out, err := s.exec("", "cat /run/fakemm.json", "")
		if err == nil && json.Unmarshal([]byte(out), &info) == nil {
			break
		}
		if i == 100 {
			s.dumpJournal()
			t.Fatalf("fakemm did not start: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	config := fmt.Sprintf("home = \"/var/lib/boxmaker\"\n\n[mattermost]\nurl = %q\ntoken = \"mattermost\"\n\n"+
		"[secrets.mattermost]\ncredential = \"mattermost-token\"\n\n[allow]\nusers = [%q]\n", info.URL, info.Ann)
	if out, err := s.exec("", "umask 077 && cat > /etc/boxmaker/gatewayd.toml && gatewayd serve --check-config --config /etc/boxmaker/gatewayd.toml && systemctl start gatewayd.service", config); err != nil {
		s.dumpJournal()
		t.Fatalf("starting gatewayd.service: %v\n%s", err, out)
	}
	// Type=notify: "running" only after READY=1, which gatewayd sends once connected.
	s.run("", "test \"$(systemctl show -p SubState --value gatewayd.service)\" = running")
	s.waitJournal("gatewayd.service", "gatewayd: connected to "+info.URL+" as @boxmaker")
	// HTTP through bash's /dev/tcp: the system has no curl.
	control := func(method, path string) string {
		return s.run("", "exec 3<>/dev/tcp/127.0.0.1/8066 && printf '%s\\r\\n\\r\\n' '"+method+" "+path+" HTTP/1.0' >&3 && sed '1,/^\\r$/d' <&3")
	}
	post := control("POST", "/dm?text=hello%20from%20mattermost")
	for i := 0; ; i++ {
		out := control("GET", "/replies?post="+post)
		if strings.Contains(out, "Hello from Box.") {
			break
		}
		if i == 150 {
			s.dumpJournal()
			t.Fatalf("the DM was not answered through the installed gatewayd and loopd: %s", out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.run("", "systemctl stop gatewayd.service")
	// Outside the unit there is no credential: gatewayd does not start.
	out, err := s.exec("", "gatewayd serve --config /etc/boxmaker/gatewayd.toml", "")
	if err == nil || !strings.Contains(out, "gatewayd: secret mattermost: CREDENTIALS_DIRECTORY is unset") || strings.Contains(out, token) {
		t.Fatalf("gatewayd outside gatewayd.service: %v\n%s", err, out)
	}
	// The rest of the test runs without Mattermost: gatewayd.service is
	// skipped again once its config is gone.
	s.run("", "rm /etc/boxmaker/gatewayd.toml && systemctl stop fakemm.service")
}

func want(t *testing.T, out, re string) {
	t.Helper()
	if !regexp.MustCompile(re).MatchString(out) {
		t.Fatalf("no match for %s in:\n%s", re, out)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
