package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkServiceGoVariablesAgainstRunc says what D1121 bought: a
// read_file through the runner's own service (its store, runc, its
// staging) with and without the Go variables its containers.conf hands
// conmon and the service's own, beside `runc run` of Podman's bundle for
// the same call (BenchmarkReadFileAgainstRunc's floor), every variant
// once per iteration, the first one rotating. CPU is the whole tree's:
// the benchmark reaps conmon, the runtime and the exit command (a child
// subreaper), and adds each service's own from /proc.
//
// "none" is the service as it was before D1121 (the machine's
// containers.conf, read from the service's copy, and no variable);
// "conmon" adds GOGC=off and GOMEMLIMIT to conmon_env_vars; "service"
// the service's own GOGC alone; "both" is brokerd's default.
func BenchmarkServiceGoVariablesAgainstRunc(b *testing.B) {
	r, call := readFileBench(b, func(c *Config) { c.Launch = LaunchRun })
	bundle := runcBundle(b, r, r.Args(call("bench-gv-anchor"), r.ContainerName("bench-gv-anchor"), directMounts(call("bench-gv-anchor"))))
	type variant struct {
		name string
		r    *Runner
		svc  *benchService
	}
	var vs []variant
	var services []*benchService
	for _, v := range []struct {
		name              string
		conmonEnv, ownEnv []string
	}{{"none", nil, nil}, {"conmon", serviceConmonEnv, nil}, {"service", nil, serviceOwnEnv}, {"both", serviceConmonEnv, serviceOwnEnv}} {
		rs := newTestRunner(b, func(c *Config) { c.ServiceDir = testServiceDir(b) })
		rs.svc.conmonEnv, rs.svc.ownEnv = v.conmonEnv, v.ownEnv
		if _, err := rs.Run(context.Background(), call("bench-gv-warm-"+v.name)); err != nil {
			b.Fatal(err)
		}
		s := &benchService{cmd: rs.svc.cmd, socket: rs.svc.socket, stat: fmt.Sprintf("/proc/%d/stat", rs.svc.cmd.Process.Pid)}
		vs = append(vs, variant{v.name, rs, s})
		services = append(services, s)
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		b.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	n := len(vs) + 1
	wall := make([]time.Duration, n)
	cpu := make([]time.Duration, n)
	for i := 0; b.Loop(); i++ {
		for k := range n {
			j := (i + k) % n
			before := childrenCPU(b)
			var svcBefore time.Duration
			if j > 0 {
				svcBefore = vs[j-1].svc.cpu(b)
			}
			t0 := time.Now()
			var out []byte
			if j == 0 {
				id := fmt.Sprintf("boxmaker-bench-gv-runc-%d-%d", os.Getpid(), i)
				bundle.cgroup("/libpod_parent/" + id)
				out = output(b, "runc", exec.Command("runc", "run", "--bundle", bundle.dir, id))
			} else {
				res, err := vs[j-1].r.Run(context.Background(), call(fmt.Sprintf("bench-gv-%s-%d", vs[j-1].name, i)))
				if err != nil {
					b.Fatal(err)
				}
				out = []byte(res.Content)
			}
			wall[j] += time.Since(t0)
			reapOrphansBut(b, services)
			cpu[j] += childrenCPU(b) - before
			if j > 0 {
				cpu[j] += vs[j-1].svc.cpu(b) - svcBefore
			}
			if !bytes.Contains(out, []byte("a line of text")) {
				b.Fatalf("%d: %q", j, out)
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(ms(wall[0]), "runc-ms/op")
	b.ReportMetric(ms(cpu[0]), "runc-cpu-ms/op")
	for j, v := range vs {
		b.ReportMetric(ms(wall[j+1]), v.name+"-ms/op")
		b.ReportMetric(ms(cpu[j+1]), v.name+"-cpu-ms/op")
		b.ReportMetric(float64(wall[j+1])/float64(wall[0]), v.name+"/runc")
		b.ReportMetric(float64(cpu[j+1])/float64(cpu[0]), v.name+"-cpu/runc")
	}
}

// BenchmarkThroughServiceStepByStep is where a call through a service
// spends its time, step by step as serviceClient.run takes them (create;
// attach, which makes the service init the container: storage mounted,
// config.json, conmon and the runtime's create; start; the streams until
// they end; the exit status, asked for until the service has read
// conmon's exit file (exited: the runner's service runs no exit
// command, D1180); the removal, which cleans the container up) and,
// after the last, the reaping of conmon's tree. Per step: wall time and the service's own CPU (with
// the runc it runs; /proc, in ticks of 10 ms, so a mean over many
// calls); "tree" is the CPU of what conmon started (the runtime's
// create, the tool) and conmon. The service is the
// runner's own, with its containers.conf (D1121).
func BenchmarkThroughServiceStepByStep(b *testing.B) {
	d := resolvedTempDir(b)
	file := d + "/file.txt"
	writeTestFile(b, file, "a line of text\n")
	if err := os.Chmod(d, 0o755); err != nil {
		b.Fatal(err)
	}
	rs := newTestRunner(b, func(c *Config) { c.ServiceDir = testServiceDir(b) })
	if why := rs.ready(true); why != "" {
		b.Fatal(why)
	}
	client, err := rs.svc.get(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	svc := &benchService{cmd: rs.svc.cmd, socket: rs.svc.socket, stat: fmt.Sprintf("/proc/%d/stat", rs.svc.cmd.Process.Pid)}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		b.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	steps := []string{"create", "attach", "start", "stream", "exited", "remove", "reap"}
	wall := make([]time.Duration, len(steps))
	own := make([]time.Duration, len(steps))
	var tree time.Duration
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		c := Call{ID: fmt.Sprintf("bench-steps-%d", i), Tool: "read_file", Paths: []string{file}}
		spec := rs.serviceSpec(c, rs.ContainerName(c.ID), directMounts(c))
		k := 0
		t, s := time.Now(), svc.cpu(b)
		step := func(err error) {
			if err != nil {
				b.Fatalf("%s: %v", steps[k], err)
			}
			t2, s2 := time.Now(), svc.cpu(b)
			wall[k] += t2.Sub(t)
			own[k] += s2 - s
			t, s = t2, s2
			k++
		}
		before := childrenCPU(b)
		id, err := client.create(ctx, spec)
		step(err)
		conn, br, err := client.attach(ctx, id, false)
		step(err)
		step(client.start(ctx, id))
		var stdout, stderr bytes.Buffer
		err = demux(br, &stdout, &stderr)
		conn.Close()
		step(err)
		code, err := client.exited(ctx, id)
		if err == nil && code != 0 {
			err = fmt.Errorf("status %d: %s", code, stderr.Bytes())
		}
		step(err)
		step(client.remove(ctx, id, false))
		reapOrphansBut(b, []*benchService{svc})
		step(nil)
		tree += childrenCPU(b) - before
		if !bytes.Contains(stdout.Bytes(), []byte("a line of text")) {
			b.Fatalf("%q", stdout.Bytes())
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	var all, svcAll time.Duration
	for k, n := range steps {
		b.ReportMetric(ms(wall[k]), n+"-ms/op")
		b.ReportMetric(ms(own[k]), n+"-svc-cpu-ms/op")
		all, svcAll = all+wall[k], svcAll+own[k]
	}
	b.ReportMetric(ms(all), "all-ms/op")
	b.ReportMetric(ms(svcAll), "svc-cpu-ms/op")
	b.ReportMetric(ms(tree), "tree-cpu-ms/op")
}
