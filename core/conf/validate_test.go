package conf

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Each template, as init writes it, is valid; each case breaks one value
// and Validate names it.
func TestValidateNamesTheValueThatCannotWork(t *testing.T) {
	load := func(role string, v any) {
		t.Helper()
		for _, r := range Roles {
			if r.Name.String() == role {
				if err := Decode(role+".toml", []byte(r.Render("/h")), v); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatalf("no role %s", role)
	}
	ptr := func(n int) *int { return &n }
	for _, tt := range []struct {
		name   string
		role   string
		change func(any)
		want   string // "" for valid
	}{
		{"brokerd as init writes it", "brokerd", func(any) {}, ""},
		{"expire_after not a duration", "brokerd", func(v any) { v.(*Brokerd).Approvals.ExpireAfter = "ten minutes" }, `[approvals] expire_after "ten minutes" is not a duration`},
		{"expire_after zero", "brokerd", func(v any) { v.(*Brokerd).Approvals.ExpireAfter = "0s" }, `[approvals] expire_after "0s"`},
		{"max_file_mb negative", "brokerd", func(v any) { v.(*Brokerd).Audit.MaxFileMB = -1 }, "[audit] max_file_mb -1"},
		{"reserve_mb too big", "brokerd", func(v any) { v.(*Brokerd).Audit.ReserveMB = ptr(2048) }, "[audit] reserve_mb 2048"},
		{"witness inside audit/", "brokerd", func(v any) { v.(*Brokerd).Audit.WitnessFile = "/h/audit/w" }, "is inside the audit directory"},
		{"witness relative", "brokerd", func(v any) { v.(*Brokerd).Audit.WitnessFile = "w" }, "is not an absolute path"},
		{"mcp directory relative", "brokerd", func(v any) { v.(*Brokerd).Paths.MCP = "etc/mcp" }, `[paths] mcp "etc/mcp" is not an absolute path`},
		{"no memory socket", "brokerd", func(v any) { v.(*Brokerd).Memory.Socket = "" }, "[memory] needs a socket"},
		{"memoryd as init writes it", "memoryd", func(any) {}, ""},
		{"memoryd without home", "memoryd", func(v any) { v.(*Memoryd).Home = "" }, "home is empty"},
		{"memoryd sync_ms negative", "memoryd", func(v any) { v.(*Memoryd).Recall.SyncMS = -1 }, "[recall] sync_ms"},
		{"loopd as init writes it", "loopd", func(any) {}, ""},
		{"loopd without a loop socket", "loopd", func(v any) { v.(*Loopd).Sockets.Loop = "" }, "[sockets] loop is empty"},
		{"loopd cache reuse above 1", "loopd", func(v any) { v.(*Loopd).Expect.MinCacheReuse = 1.5 }, "[expect] min_cache_reuse is 1.5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var v interface{ Validate() error }
			switch tt.role {
			case "brokerd":
				v = new(Brokerd)
			case "memoryd":
				v = new(Memoryd)
			case "loopd":
				v = new(Loopd)
			}
			load(tt.role, v)
			tt.change(v)
			err := v.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestDefaultsAreTheTemplatesPromise(t *testing.T) {
	var b Brokerd
	if got := b.Audit.Witness("/h"); got != "/h/broker/audit-witness" {
		t.Errorf("Witness = %q", got)
	}
	if b.Audit.Reserve() != 8<<20 || b.Audit.MinFree() != 64<<20 {
		t.Errorf("Reserve, MinFree = %d, %d", b.Audit.Reserve(), b.Audit.MinFree())
	}
	off := 0
	b.Audit.ReserveMB = &off
	if b.Audit.Reserve() != 0 {
		t.Errorf("reserve_mb = 0 does not turn it off")
	}
	if b.Yaag.Wait() != time.Minute || (BrokerdGateway{}).SocketIn("/h") != "/h/run/gateway/gateway.sock" {
		t.Errorf("Wait, SocketIn = %v, %q", b.Yaag.Wait(), (BrokerdGateway{}).SocketIn("/h"))
	}
	var l Loopd
	if l.Inference.Timeout() != 2*time.Minute || l.Inference.StartWait() != 2*time.Minute || l.Broker.Silent() != 30*time.Second {
		t.Errorf("loopd defaults: %v %v %v", l.Inference.Timeout(), l.Inference.StartWait(), l.Broker.Silent())
	}
}

func TestTheMCPDirectoryIsBesideTheGrantsUnlessNamed(t *testing.T) {
	for _, tc := range []struct {
		p    BrokerdPaths
		want string
	}{
		{BrokerdPaths{Grants: "/etc/boxmaker/grants"}, "/etc/boxmaker/mcp"},
		{BrokerdPaths{Grants: "/etc/boxmaker/grants/"}, "/etc/boxmaker/mcp"},
		{BrokerdPaths{Grants: "/etc/boxmaker/grants", MCP: "/srv/mcp"}, "/srv/mcp"},
		{BrokerdPaths{}, ""},
	} {
		if got := tc.p.MCPDir(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

// [runner] cpus and [mcp] cpus are refused where they are written, with
// the file's line: not a number of CPUs, 0 or less, below what the
// kernel takes, or above this host's CPUs. No key is one CPU for the
// tools and the tools' limit for MCP servers.
func TestCPULimitsAreCheckedOnTheirLine(t *testing.T) {
	host := runtime.NumCPU()
	var template string
	for _, r := range Roles {
		if r.Name.String() == "brokerd" {
			template = r.Render("/h")
		}
	}
	runnerLine := tableKeyLine([]byte(template), "runner", "cpus")
	mcpLine := tableLine([]byte(template), "mcp", 0)
	if runnerLine == 0 || mcpLine == 0 {
		t.Fatalf("the template has no [runner] cpus (%d) or no [mcp] (%d)", runnerLine, mcpLine)
	}
	// mcpAt puts [mcp] cpus = v on the line after [mcp]'s header.
	mcpAt := func(v string) string {
		lines := strings.Split(template, "\n")
		lines = slices.Insert(lines, mcpLine, "cpus = "+v)
		return strings.Join(lines, "\n")
	}
	runnerAt := func(v string) string { return strings.Replace(template, "\ncpus = 1.0\n", "\ncpus = "+v+"\n", 1) }
	for _, tc := range []struct {
		name, file string
		want       string // "" for valid
	}{
		{"the template's", template, ""},
		{"a fraction", runnerAt("0.25"), ""},
		{"the host's count", runnerAt(strconv.Itoa(host)), ""},
		{"the least", runnerAt("0.01"), ""},
		{"zero", runnerAt("0"), fmt.Sprintf("b.toml:%d: [runner] cpus 0 is not more than 0", runnerLine)},
		{"negative", runnerAt("-1.5"), fmt.Sprintf("b.toml:%d: [runner] cpus -1.5 is not more than 0", runnerLine)},
		{"below the kernel's least", runnerAt("0.001"), fmt.Sprintf("b.toml:%d: [runner] cpus 0.001 is below 0.01", runnerLine)},
		{"above the host", runnerAt(strconv.Itoa(host + 1)), fmt.Sprintf("b.toml:%d: [runner] cpus %d is above this host's %d CPUs", runnerLine, host+1, host)},
		{"nan", runnerAt("nan"), fmt.Sprintf("b.toml:%d: [runner] cpus NaN is not a number of CPUs", runnerLine)},
		{"inf", runnerAt("inf"), fmt.Sprintf("b.toml:%d: [runner] cpus +Inf is not a number of CPUs", runnerLine)},
		{"mcp's own", mcpAt("0.5"), ""},
		{"mcp's zero", mcpAt("0"), fmt.Sprintf("b.toml:%d: [mcp] cpus 0 is not more than 0", mcpLine+1)},
		{"mcp's above the host", mcpAt(fmt.Sprint(float64(host) + 0.5)), fmt.Sprintf("b.toml:%d: [mcp] cpus %v is above this host's", mcpLine+1, float64(host)+0.5)},
		{"both, in the file's order", strings.Replace(mcpAt("-1"), "\ncpus = 1.0\n", "\ncpus = 0\n", 1),
			fmt.Sprintf("b.toml:%d: [runner] cpus 0 is not more than 0", runnerLine)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := decodeBrokerdAs(t, tc.file, tc.want)
			if tc.name == "both, in the file's order" && !strings.Contains(err.Error(), fmt.Sprintf("\nb.toml:%d: [mcp] cpus -1", mcpLine+1)) {
				t.Errorf("Decode = %v, want [mcp]'s problem after [runner]'s", err)
			}
		})
	}
	var b Brokerd
	if b.Runner.CPULimit() != 1 || b.MCP.CPULimit(b.Runner) != 1 {
		t.Errorf("no keys: %v, %v; want 1 and 1", b.Runner.CPULimit(), b.MCP.CPULimit(b.Runner))
	}
	half, quarter := 0.5, 0.25
	b.Runner.CPUs = &half
	if b.MCP.CPULimit(b.Runner) != 0.5 {
		t.Errorf("[mcp] without cpus: %v, want [runner]'s 0.5", b.MCP.CPULimit(b.Runner))
	}
	b.MCP.CPUs = &quarter
	if b.MCP.CPULimit(b.Runner) != 0.25 {
		t.Errorf("[mcp] cpus = 0.25: %v", b.MCP.CPULimit(b.Runner))
	}
}

// [runner] total_cpus and total_memory_mb, the limits of all of
// brokerd's containers together, are refused where they are written:
// total_cpus as cpus is, total_memory_mb below the least or above this
// host's memory. No key: the host's CPUs less one (at least 1), half its
// memory.
func TestTotalLimitsAreCheckedOnTheirLine(t *testing.T) {
	host, hostMB := runtime.NumCPU(), HostMemoryMB()
	if hostMB == 0 {
		t.Fatal("this host's memory cannot be read")
	}
	var template string
	for _, r := range Roles {
		if r.Name.String() == "brokerd" {
			template = r.Render("/h")
		}
	}
	line := tableKeyLine([]byte(template), "runner", "cpus")
	// at puts key = v on the line after [runner] cpus.
	at := func(key, v string) string {
		return strings.Replace(template, "\ncpus = 1.0\n", "\ncpus = 1.0\n"+key+" = "+v+"\n", 1)
	}
	for _, tc := range []struct {
		name, file string
		want       string // "" for valid
	}{
		{"a fraction", at("total_cpus", "0.5"), ""},
		{"the host's count", at("total_cpus", strconv.Itoa(host)), ""},
		{"zero CPUs", at("total_cpus", "0"), fmt.Sprintf("b.toml:%d: [runner] total_cpus 0 is not more than 0", line+1)},
		{"above the host's CPUs", at("total_cpus", strconv.Itoa(host+1)), fmt.Sprintf("b.toml:%d: [runner] total_cpus %d is above this host's %d CPUs", line+1, host+1, host)},
		{"nan CPUs", at("total_cpus", "nan"), fmt.Sprintf("b.toml:%d: [runner] total_cpus NaN is not a number of CPUs", line+1)},
		{"some memory", at("total_memory_mb", "1024"), ""},
		{"too little memory", at("total_memory_mb", "10"), fmt.Sprintf("b.toml:%d: [runner] total_memory_mb 10 is below %d", line+1, MinTotalMemoryMB)},
		{"more memory than the host", at("total_memory_mb", strconv.Itoa(hostMB+1)), fmt.Sprintf("b.toml:%d: [runner] total_memory_mb %d is above this host's %d MiB", line+1, hostMB+1, hostMB)},
	} {
		t.Run(tc.name, func(t *testing.T) { decodeBrokerdAs(t, tc.file, tc.want) })
	}
	var r Runner
	if got, want := r.TotalCPULimit(8), 7.0; got != want {
		t.Errorf("no total_cpus on 8 CPUs: %v, want %v", got, want)
	}
	if got := r.TotalCPULimit(1); got != 1 {
		t.Errorf("no total_cpus on 1 CPU: %v, want 1", got)
	}
	if got := r.TotalMemoryLimit(16000); got != 8000 {
		t.Errorf("no total_memory_mb on 16000 MiB: %v, want 8000", got)
	}
}

// decodeBrokerdAs decodes file as brokerd.toml named b.toml: valid when
// want is "", else refused with an error beginning with want.
func decodeBrokerdAs(t *testing.T, file, want string) error {
	t.Helper()
	var b Brokerd
	err := Decode("b.toml", []byte(file), &b)
	switch {
	case want == "" && err != nil:
		t.Fatalf("Decode = %v, want nil", err)
	case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
		t.Fatalf("Decode = %v, want one beginning %q", err, want)
	}
	return err
}
