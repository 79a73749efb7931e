// Package runner runs brokerd's file tools (read_file, write_file,
// list_dir) and run in a locked-down Podman container from the tools
// image, mounting only the host paths the policy decided, each at its own
// path, so that what the container names is what the host has.
//
// The container has no network, a read-only root, no capabilities,
// no-new-privileges, ulimits, cgroup limits on pids, memory and CPU, a time
// limit, and a label boxmaker=<instance>; it is removed after the call,
// and CleanLeftovers removes what a killed brokerd left behind.
//
// Inside it, the tool executor (the boxmaker binary itself, run as
// `/bin/boxmaker tool-exec REQUEST`, REQUEST being a JSON Request) does the
// work with Execute and prints one JSON Result on stdout; write_file's
// content comes on stdin.
//
// The tools image is built offline by ToolsImage.WriteArchive as an
// oci-archive: a tar holding oci-layout, index.json and
// blobs/sha256/<digest> for one uncompressed layer (/bin/boxmaker,
// /bin/busybox and its applet links in /bin), the config and the
// manifest. Every file and the config carry the time 0, so the same two
// programs give the same bytes and the same image ID.
package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// Config is how the runner starts containers.
type Config struct {
	Podman   string // the program
	Runtime  string // the OCI runtime; RuntimeAuto: crun or runc, whichever runs here (runtime.go); empty: Podman's default
	Image    string // the tools image's ID, sha256:<64 hex>
	Instance string // the value of the label boxmaker: whose leftovers CleanLeftovers removes
	// Store is brokerd's own Podman store (store.go); the zero Store is
	// Podman's default one.
	Store Store
	// StageDir holds one staging directory per call (stage.go): brokerd's
	// own, root-only, outside every grant.
	StageDir string
	// Launch is how the file tools' and run's containers start
	// (servicerun.go): LaunchService (or empty) through a podman service
	// whose socket is in ServiceDir, root's and 0700, or LaunchRun with a
	// `podman run` each. Without a ServiceDir, every call is a podman run.
	Launch     string
	ServiceDir string
	// ContainersConf is the containers.conf Podman reads for brokerd
	// when its environment names one (CONTAINERS_CONF); empty: the
	// machine's files. The service reads it, with what serviceconf.go
	// adds, from a copy in ServiceDir.
	ContainersConf string

	// OwnerUID and OwnerGID are the user brokerd acts for: files a tool
	// writes belong to them. ToolUID is the unprivileged host uid (and
	// gid) the tool's processes run as. See docs/runner.md, "Who the tool
	// runs as".
	OwnerUID, OwnerGID int
	ToolUID            int
	// Protected are the harness's own directories (brokerd's home, its
	// configuration, the grants, the sockets' directories): an object
	// that is, contains or lies inside one is never mounted, whichever
	// path led to it. nil: none.
	Protected *policy.Protected
	// PeerUIDs are the uids brokerd's sockets accept besides its own; the
	// tool's uid must be none of them, so that a tool reaching a socket
	// never passes its peer check.
	PeerUIDs []uint32
	// SeccompProfile is where the runner writes the tools' seccomp
	// profile (seccomp.go), derived from SeccompBase (empty:
	// conf.DefaultSeccompBase) when New is called.
	SeccompProfile string
	SeccompBase    string

	UlimitNofile int
	UlimitNproc  int
	PidsLimit    int
	MemoryMB     int
	TmpMB        int
	Timeout      time.Duration // one call; run's command gets this, the container a little more
	OutputLimit  int           // bytes of a file, of stdout, of stderr
	// CPUs is one container's CPU limit, a CFS quota in CPUs (CPUQuota):
	// every container the runner starts has it, but an MCP server's,
	// which has MCPCPUs when that is not 0. At least conf.MinCPUs: there
	// is no "unlimited".
	CPUs, MCPCPUs float64
	// TotalCPUs and TotalMemoryMB bound all of the runner's containers
	// together: they run under one cgroup parent (cgroup.go) with these
	// limits, made under CgroupRoot (empty: none, and no container
	// starts) and recorded in CgroupRecord.
	TotalCPUs     float64
	TotalMemoryMB int
	CgroupRoot    string
	CgroupRecord  string
	// TotalRequired: the owner set total_cpus or total_memory_mb, so a
	// host where the parent cannot be made (cgroup v2, untested) refuses
	// to start; unset, such a host runs each container under its own
	// limits alone and says so at start (D1140).
	TotalRequired bool

	// http_fetch (fetch.go): the egress proxy's network, the directory
	// for its per-call socket directories, the CA bundle the tool trusts,
	// whether names may resolve into private ranges (tests only), and
	// how long the proxy may take to make its socket (0: 10 s).
	EgressNetwork      string
	EgressDir          string
	EgressCAFile       string
	EgressAllowPrivate bool
	EgressStartTimeout time.Duration
}

// ConfigFrom turns brokerd's [runner] section (and [mcp]'s CPU limit)
// into a Config. instance tells this brokerd's containers from another
// home's.
func ConfigFrom(b conf.Brokerd, instance string) Config {
	c := b.Runner
	return Config{
		CPUs: c.CPULimit(), MCPCPUs: b.MCP.CPULimit(c),
		TotalCPUs: c.TotalCPULimit(runtime.NumCPU()), TotalMemoryMB: c.TotalMemoryLimit(conf.HostMemoryMB()),
		CgroupRoot: CgroupRoot, CgroupRecord: CgroupRecordFor(instance),
		TotalRequired: c.TotalCPUs != nil || c.TotalMemoryMB != nil,
		Podman:        c.Podman, Runtime: c.Runtime, Launch: c.Launch, Image: c.Image, Instance: instance,
		UlimitNofile: c.UlimitNofile, UlimitNproc: c.UlimitNproc, PidsLimit: c.PidsLimit,
		MemoryMB: c.MemoryMB, TmpMB: c.TmpMB,
		Timeout:       time.Duration(c.TimeoutMS) * time.Millisecond,
		OutputLimit:   c.OutputLimit,
		EgressNetwork: c.EgressNetwork, EgressDir: c.EgressDir, EgressCAFile: c.EgressCAFile,
		EgressAllowPrivate: c.EgressAllowPrivate,
		OwnerUID:           c.OwnerUID, OwnerGID: c.OwnerGID, ToolUID: c.ToolUID,
		SeccompBase: c.SeccompBase,
	}
}

// Instance is a label value for a home: the same home gives the same
// value, two homes on one machine give two.
func Instance(home string) string {
	sum := sha256.Sum256([]byte(home))
	return hex.EncodeToString(sum[:6])
}

var (
	// Compiled at its first use, not at package init: a counted repetition
	// compiles to a copy of its class per count, and every role's start paid
	// for it (D362).
	imageIDRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })
	instanceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$`) })
)

// startGrace is what Podman may take to start and remove a container on
// top of the call's own time.
const startGrace = 10 * time.Second

// Runner runs tool calls. It is safe for concurrent use.
type Runner struct {
	cfg     Config
	idmap   func() (int, error)        // the user namespace of the owner-to-tool mapping
	seccomp func() error               // writes the tools' seccomp profile, once
	cgroup  func() ([]objectID, error) // makes the containers' cgroup parent, once (cgroup.go)
	parent  string                     // the cgroup parent, as Podman is given it; "" for none (noParent)
	// noParent says why the containers have no parent (a cgroup v2 host
	// and no total asked for), or "".
	noParent string
	// parentRefused says why no container may start: a total asked for
	// on such a host.
	parentRefused string
	budget        *budget        // container slots: pids limits within ulimit_nproc (budget.go)
	svc           *podmanService // nil: every call is a podman run (servicerun.go)
	// storeErr is why PrepareStore could not make the store ready: no
	// container starts then.
	storeErr atomic.Pointer[error]
	// runtimeWhy is why [runner] runtime = "auto" chose the runtime it did.
	runtimeWhy string
}

// New checks cfg. An empty Image is allowed (brokerd starts, and each call
// fails with runner-unavailable until one is set); a malformed one is not.
func New(cfg Config) (*Runner, error) {
	var bad []string
	if cfg.Podman == "" {
		bad = append(bad, "podman is empty")
	}
	if cfg.Image != "" && !imageIDRE().MatchString(cfg.Image) {
		bad = append(bad, fmt.Sprintf("image %q is not an image ID (sha256: and 64 hex digits, as boxmaker tools-image prints it)", cfg.Image))
	}
	if !instanceRE().MatchString(cfg.Instance) {
		bad = append(bad, fmt.Sprintf("instance %q is not a label value of [a-zA-Z0-9_.-]", cfg.Instance))
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"ulimit_nofile", cfg.UlimitNofile}, {"ulimit_nproc", cfg.UlimitNproc}, {"pids_limit", cfg.PidsLimit},
		{"memory_mb", cfg.MemoryMB}, {"tmp_mb", cfg.TmpMB}, {"output_limit", cfg.OutputLimit}} {
		if l.v <= 0 {
			bad = append(bad, fmt.Sprintf("%s must be more than 0", l.name))
		}
	}
	if cfg.Timeout <= 0 {
		bad = append(bad, "timeout_ms must be more than 0")
	}
	// NaN fails every comparison: each is written so that it fails here.
	if !(cfg.CPUs >= conf.MinCPUs && cfg.CPUs <= maxCPUs) {
		bad = append(bad, fmt.Sprintf("cpus %v must be at least %v", cfg.CPUs, conf.MinCPUs))
	}
	if cfg.MCPCPUs != 0 && !(cfg.MCPCPUs >= conf.MinCPUs && cfg.MCPCPUs <= maxCPUs) {
		bad = append(bad, fmt.Sprintf("[mcp] cpus %v must be at least %v", cfg.MCPCPUs, conf.MinCPUs))
	}
	if !(cfg.TotalCPUs >= conf.MinCPUs && cfg.TotalCPUs <= maxCPUs) {
		bad = append(bad, fmt.Sprintf("total_cpus %v must be at least %v", cfg.TotalCPUs, conf.MinCPUs))
	}
	if cfg.TotalMemoryMB < conf.MinTotalMemoryMB {
		bad = append(bad, fmt.Sprintf("total_memory_mb %d must be at least %d", cfg.TotalMemoryMB, conf.MinTotalMemoryMB))
	}
	if cfg.CgroupRoot != "" && cfg.CgroupRecord == "" {
		bad = append(bad, "the runner has a cgroup root but no record of its cgroup parent")
	}
	if cfg.PidsLimit > 0 && cfg.UlimitNproc < 2*cfg.PidsLimit {
		// http_fetch runs two containers; see budget.go.
		bad = append(bad, fmt.Sprintf("ulimit_nproc %d must be at least twice pids_limit %d: ulimit_nproc bounds the processes of all calls together (the kernel counts them per uid across the host), pids_limit one container's", cfg.UlimitNproc, cfg.PidsLimit))
	}
	if cfg.EgressDir != "" && !filepath.IsAbs(cfg.EgressDir) {
		bad = append(bad, fmt.Sprintf("egress_dir %q is not an absolute path", cfg.EgressDir))
	}
	if cfg.Launch != "" && cfg.Launch != LaunchService && cfg.Launch != LaunchRun {
		bad = append(bad, fmt.Sprintf("launch %q is neither %q nor %q", cfg.Launch, LaunchService, LaunchRun))
	}
	var why string
	cfg.Runtime, why = resolveRuntime(cfg.Runtime)
	var svc *podmanService
	if cfg.Launch != LaunchRun && cfg.ServiceDir != "" {
		var err error
		// The service serves the runner's own store (D1046).
		global := append([]string{cfg.Podman}, cfg.Store.Flags()...)
		if cfg.Runtime != "" {
			// Podman 4.3 takes the runtime from the service's command
			// line; a spec's oci_runtime is read by nothing.
			global = append(global, "--runtime", cfg.Runtime)
		}
		if svc, err = newPodmanService(cfg.ServiceDir, global, cfg.ContainersConf); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if cfg.ToolUID == 0 {
		cfg.ToolUID = conf.DefaultToolUID
	}
	switch {
	case cfg.OwnerUID < 0 || cfg.OwnerGID < 0 || cfg.OwnerUID > maxID || cfg.OwnerGID > maxID:
		bad = append(bad, fmt.Sprintf("owner_uid %d and owner_gid %d must be uids between 1 and %d", cfg.OwnerUID, cfg.OwnerGID, maxID))
	case cfg.ToolUID < 0 || cfg.ToolUID > maxID:
		bad = append(bad, fmt.Sprintf("tool_uid %d must be a uid between 1 and %d", cfg.ToolUID, maxID))
	case cfg.ToolUID == os.Geteuid():
		bad = append(bad, fmt.Sprintf("tool_uid %d is brokerd's own uid: a tool must never pass brokerd's peer check", cfg.ToolUID))
	case cfg.ToolUID == cfg.OwnerUID:
		bad = append(bad, fmt.Sprintf("tool_uid %d is the owner's uid: give tools a uid of their own, which no one uses", cfg.ToolUID))
	case slices.Contains(cfg.PeerUIDs, uint32(cfg.ToolUID)):
		bad = append(bad, fmt.Sprintf("tool_uid %d is in [sockets] allow_uids: a tool must never pass a socket's peer check", cfg.ToolUID))
	}
	var profile []byte
	if len(bad) == 0 && cfg.SeccompProfile != "" {
		var err error
		if profile, err = readSeccompProfile(cfg.SeccompBase); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("[runner]: %s", strings.Join(bad, "; "))
	}
	r := &Runner{cfg: cfg, budget: newBudget(slots(cfg)), svc: svc, runtimeWhy: why, parent: CgroupParent(cfg.Instance)}
	confs := func() ([]string, error) { return machineContainersConfs(cfg.ContainersConf, "/etc", "/usr/share") }
	if why := noParentHere(cfg.CgroupRoot, confs, "/proc/1/comm"); why != "" {
		if cfg.TotalRequired {
			r.parentRefused = why + ": brokerd cannot hold its containers to the total_cpus and total_memory_mb it was given, and runs none without them (remove both to run each container under its own limits alone)"
		} else {
			r.parent, r.noParent = "", why
		}
	}
	// Made at start (PrepareCgroupParent) or at the first container,
	// as the seccomp profile is written.
	r.cgroup = sync.OnceValues(func() ([]objectID, error) {
		return setUpCgroupParent(cfg.CgroupRoot, r.parent, cfg.CgroupRecord, cfg.TotalCPUs, cfg.TotalMemoryMB)
	})
	r.idmap = sync.OnceValues(func() (int, error) { return idmapUserns(cfg.OwnerUID, cfg.OwnerGID, cfg.ToolUID) })
	// Written at the first call, not here: New runs before brokerd holds
	// its home's lock.
	r.seccomp = sync.OnceValue(func() error { return writeSeccompProfile(profile, cfg.SeccompProfile) })
	return r, nil
}

// maxID is the highest uid or gid a mapping may name ((uid_t)-1 means none).
const maxID = 1<<32 - 2

// ready says why the runner cannot start a tool's container at all, or "".
// paths is whether the call mounts the owner's files.
func (r *Runner) ready(paths bool) string {
	switch {
	case r.cfg.Image == "":
		return "[runner] image is empty: load the tools image with boxmaker tools-image and put the ID it prints there"
	case r.storeErr.Load() != nil:
		return (*r.storeErr.Load()).Error()
	case r.cfg.SeccompProfile == "":
		return "the runner has no seccomp profile for the tools"
	case r.seccomp() != nil:
		return r.seccomp().Error()
	case r.cgroupProblem() != "":
		return r.cgroupProblem()
	case paths:
		return r.ownerProblem()
	}
	return ""
}

// ownerProblem says why the owner cannot be the one tools act for (root),
// or "".
func (r *Runner) ownerProblem() string {
	if r.noOwner() {
		return NoOwnerText
	}
	return ""
}

// noOwner says brokerd.toml names no owner: owner_uid or owner_gid is 0.
func (r *Runner) noOwner() bool { return r.cfg.OwnerUID == 0 || r.cfg.OwnerGID == 0 }

// NoOwnerText is the owner-not-set refusal: no file tool runs until
// [runner] owner_uid and owner_gid name a user other than root.
const NoOwnerText = "no owner is set: brokerd.toml's [runner] owner_uid and owner_gid are 0, so brokerd acts for no user and runs no file tool (boxmaker init --owner UID:GID sets them)"

// Call is one tool call as the policy decided it.
type Call struct {
	ID   string // the call's id; the container is named after it
	Tool string // read_file, write_file, list_dir or run
	// Paths are the host paths the decision resolved (clean, absolute, no
	// symlinks left): for a file tool exactly one, the target; for run,
	// every granted path to mount, the first being the working directory.
	// Nothing else is mounted.
	Paths   []string
	Content []byte // write_file
	Command string // run: a shell command line
	// AllowHardLinks: the grant allows read_file and write_file on a
	// regular file with more than one link; refused otherwise.
	AllowHardLinks bool
	// Masks are run's paths below its targets that deny grants cover
	// (policy.Decision.Masks): kept from the tool by mounts over them.
	Masks []policy.Mask
	URL   string // http_fetch: the decided URL; the proxy fetches its host only
}

// StartError is what Podman said when it could not start the container:
// the cause of a runner-unavailable refusal. brokerd prints it; the model
// sees only the refusal's text.
type StartError struct {
	Args []string // the command line
	Said string   // Podman's own words, or why it could not be run
}

func (e *StartError) Error() string { return "podman said: " + e.Said }

// PodmanSaid returns what Podman said when err is a runner-unavailable
// refusal, for the operator's log.
func PodmanSaid(err error) (string, bool) {
	var se *StartError
	if errors.As(err, &se) {
		return se.Said, true
	}
	return "", false
}

// locksUsedUp is what Podman 4.3 says when its table of locks is full, and
// locksLost what the operator is told it means (the runbook's runner-unavailable entry).
const (
	locksUsedUp = "exceeded num_locks"
	locksLost   = "Podman's table of container locks is full; with few containers on the machine, " +
		"podman processes killed while creating containers lost them, and no container starts until " +
		"`podman system renumber` (run with no container running) gives them back"
)

func unavailable(args []string, said string) error {
	if strings.Contains(said, locksUsedUp) {
		said += " (" + locksLost + ")"
	}
	return runbook.WithCause(runbook.RunnerUnavailable, "the tool runner could not start the container", &StartError{Args: args, Said: said})
}

// Run runs one call in a new container and returns the executor's result.
// An error means the tool did not give a result: runner-unavailable when
// the container could not start (nothing ran), otherwise a refused call
// (a target the runner cannot mount) or a container that ended without
// one (killed at its time or memory limit).
func (r *Runner) Run(ctx context.Context, c Call) (Result, error) {
	if c.Tool == string(policy.HTTPFetch) {
		return r.fetch(ctx, c)
	}
	if err := checkCall(c); err != nil {
		return Result{}, err
	}
	if why := r.ready(true); why != "" {
		if r.noOwner() {
			// The cause is the config, not Podman: say so, to the model
			// and in brokerd's log (issue 25, item 2; D882).
			return Result{}, runbook.Refuse(runbook.OwnerNotSet, "%s", NoOwnerText)
		}
		return Result{}, unavailable(nil, why)
	}
	release, err := r.admit(ctx, 1)
	if err != nil {
		return Result{}, err
	}
	defer release()
	name := r.ContainerName(c.ID)
	st, answer, err := r.stageCall(c, name)
	if err != nil {
		return Result{}, err
	}
	if answer != nil {
		return *answer, nil
	}
	defer st.release()
	var res Result
	if r.svc != nil {
		res, err = r.startThroughService(ctx, c, name, st.mounts)
	} else {
		res, err = r.start(ctx, c, name, r.Args(c, name, st.mounts))
	}
	if e, _ := runbook.EntryOf(err); e == runbook.RunnerUnavailable && st.created != nil {
		st.created.remove() // nothing ran: leave no empty file behind
	}
	res.Mounted = st.mounted
	return res, err
}

func checkCall(c Call) error {
	if c.ID == "" {
		return errors.New("the call has no id")
	}
	if !slices.Contains(Tools, c.Tool) {
		return fmt.Errorf("the runner does not run the tool %q", c.Tool)
	}
	if c.Tool != string(policy.Run) && len(c.Paths) != 1 {
		return fmt.Errorf("%s takes one target, not %d", c.Tool, len(c.Paths))
	}
	if len(c.Paths) == 0 {
		return errors.New("run needs at least one granted path")
	}
	for _, p := range c.Paths {
		if err := checkMountable(p); err != nil {
			return err
		}
	}
	return nil
}

// The container's own places: a target in one of these trees would hide
// the executor or what the kernel gives the container, and one of these
// exact paths is a mount of Podman's or the runner's own.
var (
	reservedTrees = []string{"/bin", "/dev", "/proc", "/sys"}
	reservedPaths = []string{"/etc", "/etc/hosts", "/etc/hostname", "/etc/resolv.conf",
		"/etc/passwd", "/etc/group", "/run", "/run/.containerenv", "/tmp"}
)

func checkMountable(p string) error {
	switch {
	case !filepath.IsAbs(p) || filepath.Clean(p) != p:
		return fmt.Errorf("the target %q is not a clean absolute path", p)
	case p == "/":
		return errors.New("the runner does not mount /")
	case strings.ContainsAny(p, ":\x00\n"):
		// Podman's -v separates its fields with ':'.
		return fmt.Errorf("the runner cannot mount %q: it holds ':', a NUL or a newline", p)
	}
	for _, d := range reservedTrees {
		if p == d || strings.HasPrefix(p, d+"/") {
			return fmt.Errorf("the runner cannot mount %s: %s is the container's own", p, d)
		}
	}
	if slices.Contains(reservedPaths, p) {
		return fmt.Errorf("the runner cannot mount %s: it is the container's own", p)
	}
	return nil
}

var nameRE = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// ContainerName is the container's name for a call: readable, distinct
// for distinct calls and homes even when the id has characters a name
// cannot hold, and beginning with NamePrefix(instance), so that a
// process left behind names its home (conmon's -n): boxmaker-<home
// hash>-<call id, cut at 23>-<hash of home and id>. With the egress
// proxy's "-egress" it stays a DNS label (63 bytes).
func (r *Runner) ContainerName(callID string) string {
	part := nameRE.ReplaceAllString(callID, "_")
	if len(part) > 23 {
		part = part[:23]
	}
	sum := sha256.Sum256([]byte(r.cfg.Instance + "\x00" + callID))
	return NamePrefix(r.cfg.Instance) + part + "-" + hex.EncodeToString(sum[:4])
}

// NamePrefix begins the name of every container of an instance.
func NamePrefix(instance string) string {
	sum := sha256.Sum256([]byte("instance\x00" + instance))
	return "boxmaker-" + hex.EncodeToString(sum[:4]) + "-"
}

// cpuPeriod is the CFS period of every container's CPU limit, in
// microseconds: Podman's own for --cpus.
const cpuPeriod = 100000

// maxCPUs bounds a limit whose quota must fit the kernel's (and whose
// test of a host's count is conf's).
const maxCPUs = 1 << 20

// CPUQuota is the CFS quota of a limit of cpus CPUs per cpuPeriod, in
// microseconds, as both routes give it to Podman: rounded, where
// Podman's --cpus truncates (0.29 CPUs would be 28999).
func CPUQuota(cpus float64) int64 { return int64(math.Round(cpus * cpuPeriod)) }

// cpuArgs are podman's flags for a CPU limit of cpus CPUs.
func cpuArgs(cpus float64) []string {
	return []string{"--cpu-period", strconv.Itoa(cpuPeriod), "--cpu-quota", strconv.FormatInt(CPUQuota(cpus), 10)}
}

// mcpCPUs is an MCP server's CPU limit: [mcp] cpus, else [runner]'s.
func (r *Runner) mcpCPUs() float64 {
	if r.cfg.MCPCPUs != 0 {
		return r.cfg.MCPCPUs
	}
	return r.cfg.CPUs
}

// lockdown begins the podman command line of every container of a call,
// the tool's and its egress proxy's, and of an MCP server's: its name
// and labels, its network, and the confinement [runner] sets (a
// read-only root, no capabilities and no new privileges, the tool uid
// and the seccomp profile, the ulimits, pids, memory and cpus CPUs, no
// log), podman's --timeout for it, and the runtime.
func (r *Runner) lockdown(name, network string, timeout time.Duration, cpus float64) []string {
	cfg := r.cfg
	a := []string{"run", "--rm", "--pull", "never",
		"--name", name, "--label", "boxmaker=" + cfg.Instance, "--annotation", instanceAnnotation + "=" + cfg.Instance, "--annotation", nameAnnotation + "=" + name,
		"--network", network, "--read-only", "--read-only-tmpfs=false",
		"--cap-drop", "all", "--security-opt", "no-new-privileges",
		"--user", fmt.Sprintf("%d:%d", cfg.ToolUID, cfg.ToolUID), "--security-opt", "seccomp=" + cfg.SeccompProfile,
		"--ulimit", fmt.Sprintf("nofile=%d:%d", cfg.UlimitNofile, cfg.UlimitNofile),
		"--ulimit", fmt.Sprintf("nproc=%d:%d", cfg.UlimitNproc, cfg.UlimitNproc),
		"--pids-limit", strconv.Itoa(cfg.PidsLimit),
		"--memory", fmt.Sprintf("%dm", cfg.MemoryMB), "--memory-swap", fmt.Sprintf("%dm", cfg.MemoryMB),
		// Tool output may be secret: it must not land in a log file.
		"--log-driver", "none",
		"--timeout", strconv.Itoa(int((timeout + time.Second - 1) / time.Second)),
	}
	a = append(a, cpuArgs(r.containerCPUs(cpus))...)
	a = append(a, r.cgroupArgs()...)
	if cfg.Runtime != "" {
		a = append(a, "--runtime", cfg.Runtime)
	}
	return a
}

// Args is the podman command line for a call (without the program), its
// container given mounts (the staged objects; none for http_fetch).
func (r *Runner) Args(c Call, name string, mounts []Mount) []string {
	cfg := r.cfg
	a := append(r.lockdown(name, "none", cfg.Timeout+startGrace, cfg.CPUs),
		"--tmpfs", fmt.Sprintf("/tmp:rw,nosuid,nodev,size=%dm", cfg.TmpMB))
	if c.Tool == string(policy.HTTPFetch) {
		return append(a, r.fetchArgs(c, name)...)
	}
	if c.Tool == string(policy.WriteFile) {
		a = append(a, "-i")
	}
	for _, m := range mounts {
		mode := "rw"
		if m.ReadOnly {
			mode = "ro"
		}
		a = append(a, "-v", m.Source+":"+m.Dest+":"+mode+",rbind,nosuid,nodev")
	}
	req := Request{Tool: c.Tool, Path: c.Paths[0], Command: c.Command, Limit: cfg.OutputLimit}
	if c.Tool == string(policy.Run) {
		req.TimeoutMS = int(cfg.Timeout / time.Millisecond)
	}
	body, _ := json.Marshal(req) // a struct of strings and ints
	return append(a, cfg.Image, ExecutorPath, CommandToolExec, string(body))
}

// result is the tool executor's answer the buffer holds: refused when
// it was cut or is not a Result.
func (b *bounded) result() (Result, error) {
	if b.dropped {
		return Result{}, errors.New("the tool executor's answer was longer than the runner reads")
	}
	var res Result
	if err := json.Unmarshal(b.buf.Bytes(), &res); err != nil {
		return Result{}, fmt.Errorf("the tool executor's answer is not a result: %v", err)
	}
	return res, nil
}

// bounded keeps at most limit bytes and notes that it dropped some.
type bounded struct {
	buf     bytes.Buffer
	limit   int
	dropped bool
}

func (b *bounded) Write(p []byte) (int, error) {
	if room := b.limit - b.buf.Len(); room < len(p) {
		b.dropped = true
		p = p[:max(room, 0)]
	}
	b.buf.Write(p)
	return len(p), nil
}

func (r *Runner) start(parent context.Context, c Call, name string, args []string) (Result, error) {
	ctx, cancel := context.WithTimeout(parent, r.cfg.Timeout+startGrace)
	defer cancel()
	// JSON may spell a byte in six: room for stdout and stderr at that.
	stdout := &bounded{limit: 12*r.cfg.OutputLimit + 1<<20}
	stderr := &bounded{limit: 64 << 10}
	cmd := r.podman(nil, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if c.Tool == string(policy.WriteFile) {
		cmd.Stdin = bytes.NewReader(c.Content)
	}
	cmd.WaitDelay = 5 * time.Second
	err := r.runPodman(ctx, cmd, name)
	if ctx.Err() != nil || err != nil {
		r.remove(r.cfg.Store, name)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ctx.Err() == nil && (ee.ExitCode() == 125 || ee.ExitCode() == 126 || ee.ExitCode() == 127):
		// Podman's own failures: no container ran (125), or the image has no
		// executor to run (126, 127).
		return Result{}, unavailable(args, said(stderr.buf.Bytes(), err))
	case errors.As(err, &ee):
		if parent.Err() != nil {
			return Result{}, fmt.Errorf("the call was cancelled; its container was removed: %w", parent.Err())
		}
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("the tool's container did not end within %s; it was removed", r.cfg.Timeout+startGrace)
		}
		return Result{}, fmt.Errorf("the tool's container ended with status %d without a result (killed at a limit?): %s",
			ee.ExitCode(), strings.TrimSpace(stderr.buf.String()))
	default:
		// The program could not be run at all: missing, not executable.
		return Result{}, unavailable(args, err.Error())
	}
	return stdout.result()
}

// Podman 4.3 takes a container's lock from one table of the machine's
// (num_locks, 2048 for every container, pod and volume there) before it
// records the container, and gives it back when it removes the container;
// a podman process killed between the two loses the lock until someone
// runs `podman system renumber`, and once the table is used up no
// container starts on the machine (the runbook's runner-unavailable entry).
// Killing the client of a cancelled call did that (D740). So the runner
// never signals a podman process it started while that process may be
// creating or removing a container: it removes the container by name and
// lets the client end by itself; only one that outlives stopWait is
// killed, so that no process outlives its call for long.
const (
	stopWait  = 30 * time.Second // a client, once its container is being removed
	rmWait    = time.Minute      // one `podman rm`
	rmAgainIn = 250 * time.Millisecond
)

// runPodman runs cmd, a podman client that creates and runs the container
// name, until it ends. When ctx ends first, the client is left running
// and the container is removed by name, again and again until the client
// ends: a client still creating the container goes on to record it, the
// next removal finds it, and the client's start or its attach ends.
func (r *Runner) runPodman(ctx context.Context, cmd *exec.Cmd, name string) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	give := time.NewTimer(stopWait)
	defer give.Stop()
	for {
		r.podmanRemove(r.cfg.Store, name)
		select {
		case err := <-done:
			return err
		case <-give.C:
			cmd.Process.Kill()
			return <-done
		case <-time.After(rmAgainIn):
		}
	}
}

// podmanRemove removes containers by name or id, whatever their state,
// and waits for Podman to finish: a `podman rm` killed halfway loses a
// container's lock too, so it is killed only after rmWait. It returns
// what Podman said.
func (r *Runner) podmanRemove(s Store, names ...string) ([]byte, error) {
	var out bytes.Buffer
	cmd := podmanIn(nil, r.cfg.Podman, s, append([]string{"rm", "-f", "-i", "-t", "0"}, names...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.Bytes(), err
	case <-time.After(rmWait):
		cmd.Process.Kill()
		<-done
		return out.Bytes(), fmt.Errorf("podman rm did not end within %s; it was killed", rmWait)
	}
}

// remove removes a container, whatever its state, with a context of its
// own: the call's may be the one that ran out. A Podman client killed
// mid-start (by someone else, or past stopWait) can leave the container's
// conmon and a runc init that waits for ever for its start, with Podman
// no longer knowing the container, or conmon still starting it: so
// remove also ends what conmon's command line or the runtime's state
// names as this container (leftovers.go), and looks again until neither
// names anything, for a little while.
func (r *Runner) remove(s Store, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), startGrace)
	defer cancel()
	r.podmanRemove(s, name)
	for i := 0; i < 10 && ctx.Err() == nil; i++ {
		if _, ids := r.killContainers(ctx, name); len(ids) == 0 && i > 0 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// CleanLeftovers removes the containers of this instance that a killed
// brokerd left behind, the conmon and runc processes of containers Podman
// no longer knows (leftovers.go), and the staging directories of its
// calls, and returns the containers' names. brokerd calls it at start,
// before it serves.
func (r *Runner) CleanLeftovers(ctx context.Context) ([]string, error) {
	defer r.cleanStage()
	var names, ids []string
	var inStore [][]string // the names found in each of r.stores()
	for _, s := range r.stores() {
		n, i, err := r.listLeftovers(ctx, s)
		if err != nil {
			return nil, err
		}
		names, ids, inStore = append(names, n...), append(ids, i...), append(inStore, n)
	}
	var rmErr error
	for k, s := range r.stores() {
		if len(inStore[k]) == 0 {
			continue
		}
		if out, err := r.podmanRemove(s, inStore[k]...); err != nil {
			rmErr = fmt.Errorf("podman rm of leftovers: %s", said(out, err))
		}
	}
	// Whatever Podman managed: the processes it no longer knows, or that
	// kept it from removing a container (a busy mount), end here. A
	// container Podman does not know by name is named by its id.
	killedNames, killedIDs := r.killLeftovers(ctx)
	for i, id := range killedIDs {
		n := killedNames[i]
		if slices.Contains(ids, id) || (n != "" && slices.Contains(names, n)) {
			continue
		}
		if n == "" {
			n = id
		}
		names = append(names, n)
	}
	if rmErr != nil {
		rmErr = nil
		for _, s := range r.stores() {
			if out, err := r.podmanRemove(s, names...); err != nil {
				rmErr = fmt.Errorf("podman rm of leftovers: %s", said(out, err))
			}
		}
	}
	return names, rmErr
}

// listLeftovers lists this instance's containers in the store s: by
// its label, and the storage-only ones by their name.
func (r *Runner) listLeftovers(ctx context.Context, s Store) (names, ids []string, err error) {
	args := []string{"ps", "-a", "--no-trunc", "--filter", "label=boxmaker=" + r.cfg.Instance, "--format", "{{.ID}} {{.Names}}"}
	out, err := podmanIn(ctx, r.cfg.Podman, s, args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, nil, unavailable(args, said(ee.Stderr, err))
		}
		return nil, nil, unavailable(args, err.Error())
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, name, ok := strings.Cut(l, " "); ok {
			ids, names = append(ids, id), append(names, name)
		}
	}
	// A podman client killed while it created a container leaves the
	// container in the image store with no record in Podman's own
	// database, so with no label to find it by: only its name, which
	// begins with this instance's prefix. Every later podman process reads
	// and rewrites the store's files, so each one left makes every tool
	// call in that store slower (D1001).
	args = []string{"ps", "-a", "--external", "--no-trunc", "--format", "{{.ID}} {{.Names}}"}
	if out, err = podmanIn(ctx, r.cfg.Podman, s, args...).Output(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, nil, unavailable(args, said(ee.Stderr, err))
		}
		return nil, nil, unavailable(args, err.Error())
	}
	prefix := NamePrefix(r.cfg.Instance)
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, name, ok := strings.Cut(l, " "); ok && strings.HasPrefix(name, prefix) && !slices.Contains(ids, id) {
			ids, names = append(ids, id), append(names, name)
		}
	}
	return names, ids, nil
}
