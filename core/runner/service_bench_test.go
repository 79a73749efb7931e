package runner

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkReadFileThroughService sets a read_file made through a
// long-lived `podman system service` (create, attach, start, wait and
// remove over its libpod API, no podman client process per call) beside
// the same floor BenchmarkReadFileAgainstRunc uses, `runc run` of the
// bundle Podman makes for the runner's command line, and beside the
// read_file through Runner.Run (`podman run`), every variant once in each
// iteration with the first one rotating.
//
// CPU is the whole tree's: the benchmark is a child subreaper, so conmon,
// the runtime it starts and its exit command (`podman container
// cleanup`, which Podman 4.3 hands conmon for every container, the
// service's too) are reaped here and counted; the service, which lives
// for the whole benchmark, is counted by the change of its own and its
// reaped children's time in /proc/<pid>/stat across the variant.
func BenchmarkReadFileThroughService(b *testing.B) {
	r, call := readFileBench(b, func(c *Config) { c.Launch = LaunchRun })
	bare := func(c Call) []string { return r.Args(c, r.ContainerName(c.ID), directMounts(c)) }
	bundle := runcBundle(b, r, bare(call("bench-svc-anchor")))

	// Podman 4.3 takes the runtime from the service's command line, not
	// from the spec (its oci_runtime field is read by nothing).
	svc := startBenchService(b, "runc")
	svcNoEvents := startBenchService(b, "runc", "--events-backend", "none")
	svcStore := startBenchService(b, "runc", privateStore(b, 0)...)
	svcLean := startBenchService(b, "runc", append(privateStore(b, 0), "--events-backend", "none")...)
	// The runner itself with launch = "service": staging, the spec, the
	// service it starts at its first call.
	rs := newTestRunner(b, func(c *Config) { c.ServiceDir = testServiceDir(b) })
	if _, err := rs.Run(context.Background(), call("bench-warm")); err != nil {
		b.Fatal(err)
	}
	svcRunner := &benchService{cmd: rs.svc.cmd, socket: rs.svc.socket, stat: fmt.Sprintf("/proc/%d/stat", rs.svc.cmd.Process.Pid)}
	services := []*benchService{svc, svcNoEvents, svcStore, svcLean, svcRunner}
	// crun, when BOXMAKER_BENCH_CRUN names it (as for
	// BenchmarkReadFileAgainstRunc): a second service with that runtime.
	crun := os.Getenv("BOXMAKER_BENCH_CRUN")
	var svcCrun *benchService
	if crun != "" {
		svcCrun = startBenchService(b, crun)
		services = append(services, svcCrun)
	}

	viaService := func(s *benchService, runtime string, change ...func(*serviceSpec)) func(i int) []byte {
		client := newServiceClient(s.socket)
		return func(i int) []byte {
			c := call(fmt.Sprintf("bench-s%s-%d", filepath.Base(runtime), i))
			spec := r.serviceSpec(c, r.ContainerName(c.ID), directMounts(c))
			for _, f := range change {
				f(&spec)
			}
			var stdout, stderr bytes.Buffer
			code, err := client.run(context.Background(), spec, nil, &stdout, &stderr)
			if err != nil || code != 0 {
				b.Fatalf("service (%s): %d %v %s", runtime, code, err, stderr.Bytes())
			}
			return stdout.Bytes()
		}
	}
	type variant struct {
		name    string
		service *benchService // whose CPU counts besides the reaped tree's
		run     func(i int) []byte
	}
	variants := []variant{
		{"runc", nil, func(i int) []byte {
			id := fmt.Sprintf("boxmaker-bench-svc-runc-%d-%d", os.Getpid(), i)
			bundle.cgroup("/libpod_parent/" + id)
			return output(b, "runc", exec.Command("runc", "run", "--bundle", bundle.dir, id))
		}},
		{"runner", nil, func(i int) []byte {
			res, err := r.Run(context.Background(), call(fmt.Sprintf("bench-sr-%d", i)))
			if err != nil {
				b.Fatal(err)
			}
			return []byte(res.Content)
		}},
		{"runner-service", svcRunner, func(i int) []byte {
			res, err := rs.Run(context.Background(), call(fmt.Sprintf("bench-sv-%d", i)))
			if err != nil {
				b.Fatal(err)
			}
			return []byte(res.Content)
		}},
		{"service", svc, viaService(svc, "runc")},
		{"service-events-none", svcNoEvents, viaService(svcNoEvents, "runc")},
		{"service-own-store", svcStore, viaService(svcStore, "runc")},
		{"service-lean", svcLean, viaService(svcLean, "runc", func(s *serviceSpec) { s.CgroupsMode = "no-conmon" })},
		{"service-autorm", svc, func(i int) []byte {
			// remove=true: the exit command removes the container, the
			// service is not asked to.
			c := call(fmt.Sprintf("bench-sa-%d", i))
			spec := r.serviceSpec(c, r.ContainerName(c.ID), directMounts(c))
			spec.Remove = true
			ctx := context.Background()
			client := newServiceClient(svc.socket)
			id, err := client.create(ctx, spec)
			if err != nil {
				b.Fatal(err)
			}
			conn, br, err := client.attach(ctx, id, false)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			if err := client.start(ctx, id); err != nil {
				b.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if err := demux(br, &stdout, &stderr); err != nil {
				b.Fatal(err)
			}
			if code, err := client.wait(ctx, id); err != nil && !strings.Contains(err.Error(), "404") || code > 0 {
				b.Fatal(code, err)
			}
			return stdout.Bytes()
		}},
	}
	if crun != "" {
		variants = append(variants, variant{"service-crun", svcCrun, viaService(svcCrun, crun)})
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		b.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	variants = append(variants, variant{"podman-version", nil, func(i int) []byte {
		return output(b, "podman-version", exec.Command("podman", "version"))
	}})
	wall := make([]time.Duration, len(variants))
	cpu := make([]time.Duration, len(variants))
	own := make([]time.Duration, len(variants)) // the service's share
	for i := 0; b.Loop(); i++ {
		for k := range variants {
			j := (i + k) % len(variants)
			v := variants[j]
			before := childrenCPU(b)
			var svcBefore time.Duration
			if v.service != nil {
				svcBefore = v.service.cpu(b)
			}
			t0 := time.Now()
			out := v.run(i)
			wall[j] += time.Since(t0)
			reapOrphansBut(b, services)
			cpu[j] += childrenCPU(b) - before
			if v.service != nil {
				d := v.service.cpu(b) - svcBefore
				own[j] += d
				cpu[j] += d
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
		if v.service != nil {
			b.ReportMetric(ms(own[j]), v.name+"-svc-cpu-ms/op")
		}
		if j > 0 {
			b.ReportMetric(float64(wall[j])/float64(wall[0]), v.name+"/runc")
			b.ReportMetric(float64(cpu[j])/float64(cpu[0]), v.name+"-cpu/runc")
		}
	}
}

// benchService is a `podman system service` the benchmark started.
type benchService struct {
	cmd    *exec.Cmd
	socket string
	stat   string
}

// startBenchService starts a service on a socket in a directory of its
// own and waits until it answers; it is stopped when the benchmark ends.
func startBenchService(b testing.TB, runtime string, global ...string) *benchService {
	dir, err := os.MkdirTemp("/tmp", "bxsvc")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "podman.sock")
	args := append([]string{"--runtime", runtime}, global...)
	cmd := exec.Command("podman", append(args, "system", "service", "--time", "0", "unix://"+socket)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	client := newServiceClient(socket)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := client.do(ctx, "GET", "/_ping", nil, nil)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the podman service did not answer: %v: %s", err, stderr.Bytes())
		}
	}
	return &benchService{cmd: cmd, socket: socket, stat: fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)}
}

// cpu is the service's user and system time with its reaped children's
// (utime, stime, cutime, cstime), in clock ticks of 10 ms.
func (s *benchService) cpu(b testing.TB) time.Duration {
	data, err := os.ReadFile(s.stat)
	if err != nil {
		b.Fatal(err)
	}
	// The fields after the command's name, which ends at the last ')':
	// state is field 3, utime 14 .. cstime 17.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	var ticks int64
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// reapOrphansBut waits for every process that was reparented to this one
// (a child subreaper) while a variant ran: conmon and what conmon started,
// except the services (children that live on); it looks for them in the
// children lists of this process's threads. Every child of the
// benchmark's own has been waited for by then, so none is taken from
// os/exec.
func reapOrphansBut(b *testing.B, services []*benchService) {
	keep := map[int]bool{}
	for _, s := range services {
		keep[s.cmd.Process.Pid] = true
	}
	deadline := time.Now().Add(time.Minute)
	for {
		pids := childPIDs(b)
		left := 0
		for _, pid := range pids {
			if keep[pid] {
				continue
			}
			left++
			var ws unix.WaitStatus
			if _, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); err != nil && err != syscall.ECHILD && err != syscall.EINTR {
				b.Fatal(err)
			}
		}
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatal("a process left by a variant did not end within a minute")
		}
		time.Sleep(time.Millisecond)
	}
}

// childPIDs lists this process's children, from each thread's
// /proc/self/task/<tid>/children.
func childPIDs(b *testing.B) []int {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		b.Fatal(err)
	}
	var pids []int
	for _, t := range tasks {
		data, err := os.ReadFile(filepath.Join("/proc/self/task", t.Name(), "children"))
		if err != nil {
			continue // the thread ended
		}
		for _, f := range strings.Fields(string(data)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				b.Fatal(err)
			}
			pids = append(pids, pid)
		}
	}
	return pids
}

// wait is Podman's own wait for a container, which answers once the
// container's exit command cleaned it up: the benchmarks' services run
// the machine's conmon, which runs one. The runner's service has none
// and asks for the state instead (exited, D1180).
func (s *serviceClient) wait(ctx context.Context, id string) (int, error) {
	var code int
	if err := s.do(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/wait?condition=exited&interval=20ms", nil, &code); err != nil {
		return -1, err
	}
	return code, nil
}
