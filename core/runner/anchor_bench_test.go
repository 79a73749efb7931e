package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkReadFileAgainstRunc sets a read_file through the runner against
// its floor, `runc run` of the same OCI bundle, and against the podman
// command lines that were tried to come closer to it (docs/performance.md,
// "brokerd: a tool call"). Each iteration runs every variant once, the
// first one rotating, so that the drifting load of a shared machine weighs
// on all alike.
//
// The bundle is Podman's own: `podman create` and `podman init` of the
// runner's command line for the call (the read-only file mounted directly,
// as the bare podman side of BenchmarkReadFileThroughBrokerd mounts it),
// the config.json Podman wrote for runc, the container's root file system
// as Podman prepared it and the files Podman made for it (/etc/passwd,
// /etc/group, /etc/hosts, /etc/hostname, /run/.containerenv, /dev/shm)
// copied into the benchmark's directory, then the container removed. The
// same namespaces, mounts, rlimits, seccomp profile, capabilities, user
// and cgroup limits; only the cgroup path and the id are new at each run.
//
// CPU is the whole process tree's: the benchmark makes itself a child
// subreaper, so conmon (which Podman's client double-forks), the runc
// processes conmon starts, and the `podman container cleanup` that conmon
// runs when the container ends are reaped here and counted, as runc's
// children are for the anchor.
//
// "runner" is the call with launch = "run", in the runner's own store
// (D1046) with runc; "runner-service" the same through the podman
// service the runner keeps (launch = "service", brokerd's default). The bare podman variants run in the default store
// unless their name says "own-store" (a store of the benchmark's, the
// tools image only); "lean" adds --events-backend none and a
// containers.conf without hooks, default mounts, ulimits or sysctls. With
// BOXMAKER_BENCH_CRUN naming a crun program, "crun-bundle" is `crun run`
// of the same bundle and the "crun" variants (runner-crun too) run with
// it; on a host whose hybrid cgroups crun refuses, run the benchmark in a
// mount namespace where /sys/fs/cgroup/unified/cgroup.controllers reads
// empty (docs/performance.md says how; D1049).
func BenchmarkReadFileAgainstRunc(b *testing.B) {
	r, call := readFileBench(b, nil)
	bare := func(c Call) []string { return r.Args(c, r.ContainerName(c.ID), directMounts(c)) }
	bundle := runcBundle(b, r, bare(call("bench-anchor")))
	store := privateStore(b, 0)
	leftStore := privateStore(b, storeLeftovers)
	// crun, when BOXMAKER_BENCH_CRUN names it: Podman's --runtime and
	// `crun run` of the same bundle.
	crun := os.Getenv("BOXMAKER_BENCH_CRUN")
	withRuntime := func(args []string, runtime string) []string {
		args = slices.Clone(args)
		args[slices.Index(args, "--runtime")+1] = runtime
		return args
	}
	// lean is the per-process work a store of brokerd's own can skip:
	// events, and a containers.conf of its own (no hooks, no default
	// mounts, no default ulimits or sysctls).
	lean := leanConf(b)
	// rootfs is the tools image's files in a directory: --rootfs DIR:O
	// gives each container an overlay of its own above it, without the
	// image store's layers.
	rootfs := imageRootfs(b, store)
	withRootfs := func(args []string) []string {
		i := slices.Index(args, r.cfg.Image)
		return slices.Concat(args[:i], []string{"--rootfs", rootfs + ":O"}, args[i+1:])
	}
	execIn := longLivedContainer(b, r, bare(call("bench-exec")))

	// beforeImage puts more options just before the image.
	beforeImage := func(args []string, more ...string) []string {
		i := slices.Index(args, r.cfg.Image)
		return slices.Concat(args[:i], more, args[i:])
	}
	podman := func(global ...string) func(i int, name string, args []string) []byte {
		return func(i int, name string, args []string) []byte {
			return output(b, name, exec.Command("podman", append(global, args...)...))
		}
	}
	type variant struct {
		name string
		run  func(i int) []byte
	}
	// The runner with launch = "service" (servicerun.go), in its own
	// store: the service it starts at its first call lives on, and its
	// CPU is counted from /proc, as BenchmarkReadFileThroughService
	// counts it.
	serviceOf := map[string]*benchService{}
	var services []*benchService
	viaService := func(name string, change func(*Config), env ...string) variant {
		rs := newTestRunner(b, func(c *Config) {
			c.ServiceDir = testServiceDir(b)
			if change != nil {
				change(c)
			}
		})
		// The service starts at the first call and keeps the environment
		// it started with (conmon and its exit command get CONTAINERS_CONF
		// from it): env is set for that call only.
		for i := 0; i+1 < len(env); i += 2 {
			os.Setenv(env[i], env[i+1])
		}
		_, err := rs.Run(context.Background(), call("bench-warm-"+name))
		for i := 0; i+1 < len(env); i += 2 {
			os.Unsetenv(env[i])
		}
		if err != nil {
			b.Fatal(err)
		}
		s := &benchService{cmd: rs.svc.cmd, socket: rs.svc.socket, stat: fmt.Sprintf("/proc/%d/stat", rs.svc.cmd.Process.Pid)}
		serviceOf[name] = s
		services = append(services, s)
		return variant{name, func(i int) []byte {
			res, err := rs.Run(context.Background(), call(fmt.Sprintf("bench-%s-%d", name, i)))
			if err != nil {
				b.Fatal(err)
			}
			return []byte(res.Content)
		}}
	}
	variants := []variant{
		{"runc", func(i int) []byte {
			id := fmt.Sprintf("boxmaker-bench-runc-%d-%d", os.Getpid(), i)
			bundle.cgroup("/libpod_parent/" + id)
			return output(b, "runc", exec.Command("runc", "run", "--bundle", bundle.dir, id))
		}},
		{"runner", func(i int) []byte {
			res, err := r.Run(context.Background(), call(fmt.Sprintf("bench-rr-%d", i)))
			if err != nil {
				b.Fatal(err)
			}
			return []byte(res.Content)
		}},
		{"podman", func(i int) []byte { return podman()(i, "podman", bare(call(fmt.Sprintf("bench-rp-%d", i)))) }},
		{"events-none", func(i int) []byte {
			return podman("--events-backend", "none")(i, "events-none", bare(call(fmt.Sprintf("bench-re-%d", i))))
		}},
		{"no-files", func(i int) []byte {
			return podman()(i, "no-files", beforeImage(bare(call(fmt.Sprintf("bench-rf-%d", i))), "--no-hosts", "--passwd=false"))
		}},
		{"no-conmon-cgroup", func(i int) []byte {
			return podman()(i, "no-conmon-cgroup", beforeImage(bare(call(fmt.Sprintf("bench-rc-%d", i))), "--cgroups", "no-conmon"))
		}},
		{"own-store", func(i int) []byte {
			return podman(store...)(i, "own-store", bare(call(fmt.Sprintf("bench-rs-%d", i))))
		}},
		{"own-store-leftovers", func(i int) []byte {
			return podman(leftStore...)(i, "own-store-leftovers", bare(call(fmt.Sprintf("bench-rl-%d", i))))
		}},
		{"exec", func(i int) []byte {
			return output(b, "exec", exec.Command("podman", slices.Concat([]string{"exec"}, execIn)...))
		}},
		{"podman-version", func(i int) []byte {
			return output(b, "podman-version", exec.Command("podman", "version"))
		}},
		{"own-store-events-none", func(i int) []byte {
			return podman(append(slices.Clone(store), "--events-backend", "none")...)(i, "own-store-events-none", bare(call(fmt.Sprintf("bench-rv-%d", i))))
		}},
		{"own-store-lean", func(i int) []byte {
			cmd := exec.Command("podman", slices.Concat(store, []string{"--events-backend", "none"}, bare(call(fmt.Sprintf("bench-rn-%d", i))))...)
			cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+lean)
			return output(b, "own-store-lean", cmd)
		}},
	}
	variants = append(variants, viaService("runner-service", nil))
	if crun != "" {
		rc := newTestRunner(b, func(c *Config) { c.Runtime = crun })
		variants = append(variants, viaService("runner-crun-service", func(c *Config) { c.Runtime = crun }),
			viaService("runner-crun-service-lean", func(c *Config) { c.Runtime = crun }, "CONTAINERS_CONF", lean))
		variants = append(variants,
			variant{"runner-crun", func(i int) []byte {
				res, err := rc.Run(context.Background(), call(fmt.Sprintf("bench-rq-%d", i)))
				if err != nil {
					b.Fatal(err)
				}
				return []byte(res.Content)
			}},
			variant{"crun-bundle", func(i int) []byte {
				id := fmt.Sprintf("boxmaker-bench-crun-%d-%d", os.Getpid(), i)
				bundle.cgroup("/libpod_parent/" + id)
				return output(b, "crun", exec.Command(crun, "run", "--bundle", bundle.dir, id))
			}},
			variant{"crun", func(i int) []byte {
				return podman()(i, "crun", withRuntime(bare(call(fmt.Sprintf("bench-rk-%d", i))), crun))
			}},
			variant{"own-store-crun", func(i int) []byte {
				return podman(store...)(i, "own-store-crun", withRuntime(bare(call(fmt.Sprintf("bench-rw-%d", i))), crun))
			}},
			variant{"own-store-crun-rootfs", func(i int) []byte {
				return podman(store...)(i, "own-store-crun-rootfs", withRootfs(withRuntime(bare(call(fmt.Sprintf("bench-ry-%d", i))), crun)))
			}},
			variant{"own-store-crun-lean", func(i int) []byte {
				cmd := exec.Command("podman", slices.Concat(store, []string{"--events-backend", "none"}, withRuntime(bare(call(fmt.Sprintf("bench-rx-%d", i))), crun))...)
				cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+lean)
				return output(b, "own-store-crun-lean", cmd)
			}},
		)
	}
	// After the long-lived container started: its conmon must not be
	// reparented here.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		b.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	wall := make([]time.Duration, len(variants))
	cpu := make([]time.Duration, len(variants))
	for i := 0; b.Loop(); i++ {
		for k := range variants {
			j := (i + k) % len(variants)
			v := variants[j]
			before := childrenCPU(b)
			var svcBefore time.Duration
			if s := serviceOf[v.name]; s != nil {
				svcBefore = s.cpu(b)
			}
			t0 := time.Now()
			out := v.run(i)
			wall[j] += time.Since(t0)
			reapOrphansBut(b, services)
			cpu[j] += childrenCPU(b) - before
			if s := serviceOf[v.name]; s != nil {
				cpu[j] += s.cpu(b) - svcBefore
			}
			if v.name != "podman-version" && !bytes.Contains(out, []byte("a line of text")) {
				b.Fatalf("%s: %q", v.name, out)
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	for j, v := range variants {
		b.ReportMetric(ms(wall[j]), v.name+"-ms/op")
		b.ReportMetric(ms(cpu[j]), v.name+"-cpu-ms/op")
		if j > 0 {
			b.ReportMetric(float64(wall[j])/float64(wall[0]), v.name+"/runc")
			b.ReportMetric(float64(cpu[j])/float64(cpu[0]), v.name+"-cpu/runc")
		}
	}
}

// imageRootfs copies the tools image's files out of store into a
// directory of the benchmark's.
func imageRootfs(b *testing.B, store []string) string {
	mnt := strings.TrimSpace(string(podmanOK(b, append(slices.Clone(store), "image", "mount", testImage)...)))
	defer podmanOK(b, append(slices.Clone(store), "image", "unmount", testImage)...)
	dir := filepath.Join(b.TempDir(), "rootfs")
	if out, err := exec.Command("cp", "-a", mnt, dir).CombinedOutput(); err != nil {
		b.Fatalf("cp -a %s %s: %v %s", mnt, dir, err, out)
	}
	return dir
}

// leanConf writes a containers.conf that turns off what a tool call does
// not need of Podman's per-process work: OCI hooks, the default mounts
// file, the default ulimits and sysctls.
func leanConf(b *testing.B) string {
	p := filepath.Join(b.TempDir(), "containers.conf")
	conf := "[containers]\ndefault_sysctls = []\ndefault_ulimits = []\nmounts = []\ninit = false\n\n[engine]\nhooks_dir = []\nevents_logger = \"none\"\nno_pivot_root = false\n"
	if err := os.WriteFile(p, []byte(conf), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// output runs cmd and returns its standard output; the benchmark fails
// when it fails.
func output(b *testing.B, name string, cmd *exec.Cmd) []byte {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s: %v: %s", name, err, stderr.Bytes())
	}
	return out
}

// childrenCPU is the user and system time of every child this process
// has reaped.
func childrenCPU(b *testing.B) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// anchorBundle is an OCI bundle for `runc run`: Podman's config.json
// and copies of what it names.
type anchorBundle struct {
	dir    string
	config map[string]any
	b      *testing.B
}

// cgroup writes config.json with a cgroup path of its own, so that two
// runs never share one.
func (a *anchorBundle) cgroup(path string) {
	a.config["linux"].(map[string]any)["cgroupsPath"] = path
	data, err := json.Marshal(a.config)
	if err != nil {
		a.b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a.dir, "config.json"), data, 0o600); err != nil {
		a.b.Fatal(err)
	}
}

// runcBundle makes the bundle Podman would hand runc for args (a `podman
// run` command line), copied so that it outlives the container.
func runcBundle(b *testing.B, r *Runner, args []string) *anchorBundle {
	name := args[slices.Index(args, "--name")+1]
	create := slices.Concat([]string{"create"}, slices.DeleteFunc(slices.Clone(args[1:]), func(s string) bool { return s == "--rm" }))
	podmanOK(b, create...)
	defer podmanOK(b, "rm", "-f", "-t", "0", name)
	podmanOK(b, "init", name)
	path := strings.TrimSpace(string(podmanOK(b, "inspect", "--format", "{{.OCIConfigPath}}", name)))
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var config map[string]any
	if err := json.Unmarshal(data, &config); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	copyTree := func(from, to string) {
		if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
			b.Fatalf("cp -a %s %s: %v %s", from, to, err, out)
		}
	}
	root := config["root"].(map[string]any)
	copyTree(root["path"].(string), filepath.Join(dir, "rootfs"))
	root["path"] = filepath.Join(dir, "rootfs")
	for i, m := range config["mounts"].([]any) {
		m := m.(map[string]any)
		if src, _ := m["source"].(string); m["type"] == "bind" && strings.Contains(src, "/overlay-containers/") {
			to := filepath.Join(dir, fmt.Sprintf("file%d-%s", i, filepath.Base(src)))
			copyTree(src, to)
			m["source"] = to
		}
	}
	if got := config["process"].(map[string]any)["args"].([]any)[0]; got != ExecutorPath {
		b.Fatalf("the bundle runs %v, not the executor", got)
	}
	return &anchorBundle{dir: dir, config: config, b: b}
}

// storeLeftovers is how many storage-only containers privateStore
// leaves in the store it makes for "own-store-leftovers": as many as the
// shared store of the machine the figures were taken on held, every one
// a boxmaker container left there by a podman killed while it created it
// (D1001).
const storeLeftovers = 712

// privateStore is a Podman store of the benchmark's own holding the tools
// image and, made by buildah, leftovers storage-only containers, as
// global options: Podman's cost with none of the machine's other images,
// layers and containers in its files. The stores are made once for every
// run of the benchmark (buildah makes about ten containers a second) and
// removed when the tests end.
func privateStore(b *testing.B, leftovers int) []string {
	privateStores.Lock()
	defer privateStores.Unlock()
	if s, ok := privateStores.made[leftovers]; ok {
		return s
	}
	dir, err := os.MkdirTemp("/tmp", "bxs") // Podman wants a run root under 50 bytes
	if err != nil {
		b.Fatal(err)
	}
	store := []string{"--root", dir + "/root", "--runroot", dir + "/run", "--tmpdir", dir + "/tmp"}
	privateStores.cleanups = append(privateStores.cleanups, func() {
		exec.Command("podman", append(store, "rm", "-a", "-f", "-t", "0")...).Run()
		if leftovers > 0 {
			exec.Command("buildah", "--root", dir+"/root", "--runroot", dir+"/run", "rm", "-a").Run()
		}
		exec.Command("podman", append(store, "rmi", "-a", "-f")...).Run()
		os.RemoveAll(dir)
	})
	archive := filepath.Join(dir, "tools.tar")
	podmanOK(b, "save", "--format", "oci-archive", "-o", archive, testImage)
	podmanOK(b, append(store, "load", "-q", "-i", archive)...)
	for i := range leftovers {
		cmd := exec.Command("buildah", "--root", dir+"/root", "--runroot", dir+"/run", "from", "--pull=never", "--name", fmt.Sprintf("left-%d", i), testImage)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("buildah from: %v: %s", err, out)
		}
	}
	privateStores.made[leftovers] = store
	return store
}

// privateStores are the benchmark's stores, by their number of leftovers.
var privateStores = struct {
	sync.Mutex
	made     map[int][]string
	cleanups []func()
}{made: map[int][]string{}}

// removePrivateStores removes the stores privateStore made.
func removePrivateStores() {
	for _, f := range privateStores.cleanups {
		f()
	}
}

// longLivedContainer starts a container with the runner's confinement for
// args whose process only sleeps, and returns the rest of a `podman exec`
// command line that runs the call's executor in it: the per-session
// container that was considered and set aside (D1002).
func longLivedContainer(b *testing.B, r *Runner, args []string) []string {
	name := args[slices.Index(args, "--name")+1]
	i := slices.Index(args, r.cfg.Image)
	// Without the call's --timeout: it lives for the whole benchmark.
	t := slices.Index(args, "--timeout")
	detached := slices.Concat([]string{"run", "-d"}, args[2:t], args[t+2:i+1], []string{"/bin/sleep", "3600"})
	podmanOK(b, detached...)
	b.Cleanup(func() { exec.Command("podman", "rm", "-f", "-t", "0", name).Run() })
	return slices.Concat([]string{name}, args[i+1:])
}

func podmanOK(b *testing.B, args ...string) []byte {
	out, err := exec.Command("podman", args...).Output()
	if err != nil {
		var stderr []byte
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		b.Fatalf("podman %s: %v: %s", strings.Join(args, " "), err, stderr)
	}
	return out
}

// readFileBench is the runner of a read_file benchmark, ready, and its
// call of a one-line file in a directory of its own (0755: the direct
// mount of the bare podman and runc sides is not idmapped).
func readFileBench(b *testing.B, change func(*Config)) (*Runner, func(id string) Call) {
	d := resolvedTempDir(b)
	file := d + "/file.txt"
	writeTestFile(b, file, "a line of text\n")
	if err := os.Chmod(d, 0o755); err != nil {
		b.Fatal(err)
	}
	r := newTestRunner(b, change)
	if why := r.ready(true); why != "" {
		b.Fatal(why)
	}
	return r, func(id string) Call { return Call{ID: id, Tool: "read_file", Paths: []string{file}} }
}
