package runner

// A tool call through Podman's libpod REST API: a `podman system
// service` of brokerd's own listens on a unix socket in a root-only
// directory, and each call creates, attaches to, starts, waits for and
// removes its container through it, so that no podman client process
// starts per call (docs/performance.md, "brokerd: a tool call").
//
// The container is described by a SpecGenerator (Podman's
// pkg/specgen), the JSON the podman client itself sends a service for a
// `podman run` command line. The service decodes it without refusing
// unknown fields, so a misspelt field would silently drop a lockdown
// option: TestServiceSpecMatchesCommandLine compares the OCI
// configuration the service makes from it with the one `podman create`
// makes from the runner's command line.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// serviceAPI is the libpod API version the paths name: Debian 12's Podman.
const serviceAPI = "/v4.3.1/libpod"

// serviceSpec is the part of Podman 4.3's specgen.SpecGenerator the
// runner sets, with its JSON names.
type serviceSpec struct {
	Name               string            `json:"name"`
	Command            []string          `json:"command"`
	HTTPProxy          bool              `json:"httpproxy"`
	Labels             map[string]string `json:"labels"`
	Annotations        map[string]string `json:"annotations"`
	StopTimeout        uint              `json:"stop_timeout"`
	Timeout            uint              `json:"timeout"`
	LogConfiguration   serviceLog        `json:"log_configuration"`
	Stdin              bool              `json:"stdin,omitempty"`
	Remove             bool              `json:"remove"`
	Volatile           bool              `json:"volatile"`
	Image              string            `json:"image"`
	RawImageName       string            `json:"raw_image_name"`
	Systemd            string            `json:"systemd"`
	ManagePassword     bool              `json:"manage_password"`
	ImageVolumeMode    string            `json:"image_volume_mode"`
	Mounts             []serviceMount    `json:"mounts"`
	User               string            `json:"user"`
	CapDrop            []string          `json:"cap_drop"`
	SeccompPolicy      string            `json:"seccomp_policy"`
	SeccompProfilePath string            `json:"seccomp_profile_path"`
	NoNewPrivileges    bool              `json:"no_new_privileges"`
	ReadOnlyFilesystem bool              `json:"read_only_filesystem"`
	Umask              string            `json:"umask"`
	CgroupsMode        string            `json:"cgroups_mode"`
	CgroupParent       string            `json:"cgroup_parent"`
	NetNS              serviceNamespace  `json:"netns"`
	UseImageHosts      bool              `json:"use_image_hosts"`
	ResourceLimits     serviceResources  `json:"resource_limits"`
	Rlimits            []serviceRlimit   `json:"r_limits"`
}

type serviceLog struct {
	Driver string `json:"driver"`
}

type serviceMount struct {
	Destination string   `json:"destination"`
	Type        string   `json:"type"`
	Source      string   `json:"source"`
	Options     []string `json:"options"`
}

type serviceNamespace struct {
	NSMode string `json:"nsmode"`
}

type serviceResources struct {
	Memory struct {
		Limit int64 `json:"limit"`
		Swap  int64 `json:"swap"`
	} `json:"memory"`
	Pids struct {
		Limit int64 `json:"limit"`
	} `json:"pids"`
	CPU struct {
		Quota  int64  `json:"quota"`
		Period uint64 `json:"period"`
	} `json:"cpu"`
}

type serviceRlimit struct {
	Type string `json:"type"`
	Hard uint64 `json:"hard"`
	Soft uint64 `json:"soft"`
}

// serviceSpec is the SpecGenerator for a call's container: what Args
// says on podman's command line, in the service's words. Only the file
// tools and run (not http_fetch).
func (r *Runner) serviceSpec(c Call, name string, mounts []Mount) serviceSpec {
	cfg := r.cfg
	s := serviceSpec{
		Name:      name,
		HTTPProxy: true,
		Labels:    map[string]string{"boxmaker": cfg.Instance},
		// The runner's own, and the two the podman client adds.
		Annotations: map[string]string{instanceAnnotation: cfg.Instance, nameAnnotation: name,
			"io.kubernetes.cri-o.TTY": "false", "io.podman.annotations.seccomp": cfg.SeccompProfile},
		StopTimeout:        10,
		Timeout:            uint((cfg.Timeout + startGrace + time.Second - 1) / time.Second),
		LogConfiguration:   serviceLog{Driver: "none"},
		Stdin:              c.Tool == "write_file",
		Remove:             false, // removed by the runner once exited: see serviceClient.run
		Image:              cfg.Image,
		RawImageName:       cfg.Image,
		Systemd:            "true",
		ManagePassword:     true,
		ImageVolumeMode:    "anonymous",
		User:               fmt.Sprintf("%d:%d", cfg.ToolUID, cfg.ToolUID),
		CapDrop:            []string{"all"},
		SeccompPolicy:      "default",
		SeccompProfilePath: cfg.SeccompProfile,
		NoNewPrivileges:    true,
		ReadOnlyFilesystem: true,
		Umask:              "0022",
		CgroupsMode:        "enabled",
		NetNS:              serviceNamespace{NSMode: "none"},
		Rlimits: []serviceRlimit{
			{Type: "nofile", Hard: uint64(cfg.UlimitNofile), Soft: uint64(cfg.UlimitNofile)},
			{Type: "nproc", Hard: uint64(cfg.UlimitNproc), Soft: uint64(cfg.UlimitNproc)},
		},
	}
	s.ResourceLimits.Memory.Limit = int64(cfg.MemoryMB) << 20
	s.ResourceLimits.Memory.Swap = int64(cfg.MemoryMB) << 20
	s.ResourceLimits.Pids.Limit = int64(cfg.PidsLimit)
	s.ResourceLimits.CPU.Quota, s.ResourceLimits.CPU.Period = CPUQuota(r.containerCPUs(cfg.CPUs)), cpuPeriod
	s.CgroupParent = r.parent
	for _, m := range mounts {
		mode := "rw"
		if m.ReadOnly {
			mode = "ro"
		}
		s.Mounts = append(s.Mounts, serviceMount{Destination: m.Dest, Type: "bind", Source: m.Source, Options: []string{mode, "rbind", "nosuid", "nodev"}})
	}
	s.Mounts = append(s.Mounts, serviceMount{Destination: "/tmp", Type: "tmpfs", Source: "tmpfs",
		Options: []string{"rw", "nosuid", "nodev", fmt.Sprintf("size=%dm", cfg.TmpMB)}})
	req := Request{Tool: c.Tool, Path: c.Paths[0], Command: c.Command, Limit: cfg.OutputLimit}
	if c.Tool == "run" {
		req.TimeoutMS = int(cfg.Timeout / time.Millisecond)
	}
	body, _ := json.Marshal(req) // a struct of strings and ints
	s.Command = []string{ExecutorPath, CommandToolExec, string(body)}
	return s
}

// serviceClient speaks the libpod API to one service's socket.
type serviceClient struct {
	socket string
	http   *http.Client
	// step bounds each of the service's own steps of a call (create,
	// attach, start, the wait once the container's streams ended,
	// remove): a service that takes longer does not answer.
	step time.Duration
}

func newServiceClient(socket string) *serviceClient {
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}
	return &serviceClient{socket: socket, http: &http.Client{Transport: &http.Transport{DialContext: dial, MaxIdleConns: 4}}, step: rmWait}
}

// serviceError is an answer of the service's that is not a success.
type serviceError struct {
	Status  int
	Message string
}

func (e *serviceError) Error() string {
	return fmt.Sprintf("podman service: %d: %s", e.Status, e.Message)
}

// do sends one request and decodes a JSON answer into out (nil: none).
func (s *serviceClient) do(ctx context.Context, method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://d"+serviceAPI+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &e) != nil || e.Message == "" {
			e.Message = strings.TrimSpace(string(data))
		}
		return &serviceError{Status: resp.StatusCode, Message: e.Message}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// version is the service's Podman version.
func (s *serviceClient) version(ctx context.Context) (string, error) {
	var out struct {
		Version string `json:"Version"`
	}
	if err := s.do(ctx, http.MethodGet, "/version", nil, &out); err != nil {
		return "", err
	}
	if out.Version == "" {
		return "", errors.New("podman service: /version answered no version")
	}
	return out.Version, nil
}

// create makes the container and returns its ID.
func (s *serviceClient) create(ctx context.Context, spec serviceSpec) (string, error) {
	var out struct {
		ID string `json:"Id"`
	}
	if err := s.do(ctx, http.MethodPost, "/containers/create", spec, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", errors.New("podman service: create answered no container ID")
	}
	return out.ID, nil
}

// attach opens the container's standard streams (before it starts, so
// that nothing it writes is missed) and returns the connection.
func (s *serviceClient) attach(ctx context.Context, id string, stdin bool) (net.Conn, *bufio.Reader, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", s.socket)
	if err != nil {
		return nil, nil, err
	}
	// Every stream named (an unnamed stdin is attached), and no detach
	// keys: ctrl-p ctrl-q in a file written would otherwise end its
	// stdin there.
	q := url.Values{"stream": {"true"}, "stdout": {"true"}, "stderr": {"true"},
		"stdin": {strconv.FormatBool(stdin)}, "detachKeys": {""}}
	path := serviceAPI + "/containers/" + url.PathEscape(id) + "/attach?" + q.Encode()
	req, _ := http.NewRequest(http.MethodPost, "http://d"+path, nil)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "tcp")
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, nil, err
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols && resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		conn.Close()
		return nil, nil, &serviceError{Status: resp.StatusCode, Message: strings.TrimSpace(string(data))}
	}
	return conn, br, nil
}

// demux copies a multiplexed attach stream (frames of an 8-byte header:
// the stream, three zero bytes, the length big-endian) to stdout and
// stderr until it ends.
func demux(r io.Reader, stdout, stderr io.Writer) error {
	var h [8]byte
	for {
		if _, err := io.ReadFull(r, h[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		n := int64(binary.BigEndian.Uint32(h[4:]))
		w := io.Discard
		switch h[0] {
		case 1:
			w = stdout
		case 2:
			w = stderr
		}
		if _, err := io.CopyN(w, r, n); err != nil {
			return err
		}
	}
}

// start starts the created container.
func (s *serviceClient) start(ctx context.Context, id string) error {
	return s.do(ctx, http.MethodPost, "/containers/"+url.PathEscape(id)+"/start", nil, nil)
}

// exitedPoll is how often exited asks again for a container's state.
const exitedPoll = 5 * time.Millisecond

// exited waits until the container, whose streams ended, has exited and
// returns its status. It asks for the container's state (the service
// reads conmon's exit file when asked) until it is stopped or exited:
// Podman 4.3's wait answers only once an exit command cleaned the
// container up, and the service's containers have none (D1180). Any
// other state, or none, is an error: a status not known is never 0.
func (s *serviceClient) exited(ctx context.Context, id string) (int, error) {
	for {
		var out struct {
			State struct {
				Status   string `json:"Status"`
				ExitCode *int   `json:"ExitCode"`
			} `json:"State"`
		}
		if err := s.do(ctx, http.MethodGet, "/containers/"+url.PathEscape(id)+"/json", nil, &out); err != nil {
			return -1, err
		}
		switch out.State.Status {
		case "stopped", "exited":
			if out.State.ExitCode == nil {
				return -1, fmt.Errorf("podman service: the container is %s without an exit status", out.State.Status)
			}
			return *out.State.ExitCode, nil
		case "running", "stopping":
		default:
			return -1, fmt.Errorf("podman service: the container is %q after its streams ended", out.State.Status)
		}
		select {
		case <-ctx.Done():
			return -1, ctx.Err()
		case <-time.After(exitedPoll):
		}
	}
}

// remove removes the container, killing it first when force is set.
func (s *serviceClient) remove(ctx context.Context, id string, force bool) error {
	q := url.Values{"force": {strconv.FormatBool(force)}, "volumes": {"true"}, "timeout": {"0"}}
	return s.do(ctx, http.MethodDelete, "/containers/"+url.PathEscape(id)+"?"+q.Encode(), nil, nil)
}

// removeError is a container the service did not remove after its call
// ran: the call's answer stands, the runner removes it another way.
type removeError struct{ err error }

func (e *removeError) Error() string {
	return "podman service: the container was not removed: " + e.err.Error()
}
func (e *removeError) Unwrap() error { return e.err }

// stepContext bounds one of the service's own steps of a call, never
// cut short by ctx (the call's).
func (s *serviceClient) stepContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.step)
}

// run runs one container as `podman run --rm` does: create, attach,
// start, stdin written, the streams copied until they end, the exit
// status asked for (exited), remove.
// The service's own work (create, start, remove) is never cut short by
// ctx, as the runner never kills a podman client that may be creating or
// removing a container (runPodman), but each step is bounded by s.step:
// the tool's own time, between start and the end of its streams, is
// ctx's alone. When ctx ends first, the container is removed by force
// and run answers -1 with no error. A container made is removed whatever
// happens after; a removal that fails is a *removeError.
func (s *serviceClient) run(ctx context.Context, spec serviceSpec, stdin []byte, stdout, stderr io.Writer) (code int, err error) {
	cctx, cancel := s.stepContext(ctx)
	id, err := s.create(cctx, spec)
	cancel()
	if err != nil {
		return -1, err
	}
	removed := false
	defer func() {
		if removed {
			return
		}
		rctx, cancel := s.stepContext(ctx)
		defer cancel()
		if rerr := s.remove(rctx, id, err != nil || code == -1); rerr != nil && err == nil {
			err = &removeError{rerr}
		}
	}()
	if ctx.Err() != nil {
		return -1, nil // removed by force, never started
	}
	actx, cancel := s.stepContext(ctx)
	defer cancel()
	conn, br, err := s.attach(actx, id, spec.Stdin)
	if err != nil {
		return -1, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Time{}) // the call's own time is ctx's
	sctx, cancel := s.stepContext(ctx)
	defer cancel()
	if err := s.start(sctx, id); err != nil {
		return -1, err
	}
	if spec.Stdin {
		go func() {
			conn.Write(stdin)
			if uc, ok := conn.(*net.UnixConn); ok {
				uc.CloseWrite()
			}
		}()
	}
	done := make(chan error, 1)
	go func() { done <- demux(br, stdout, stderr) }()
	select {
	case err := <-done:
		if err != nil {
			return -1, fmt.Errorf("podman service: the container's output: %w", err)
		}
		// Its streams ended with it: its exit status is one more step. The
		// container ran, so no answer of the service's here may read as
		// "nothing ran" (a *serviceError): its cause is kept as text.
		wctx, cancel := s.stepContext(ctx)
		defer cancel()
		code, err := s.exited(wctx, id)
		if err != nil {
			return -1, fmt.Errorf("podman service: the exit status of a container that ran: %v", err)
		}
		return code, nil
	case <-ctx.Done():
		// Killed and removed; its streams end with it.
		rctx, cancel := s.stepContext(ctx)
		defer cancel()
		rerr := s.remove(rctx, id, true)
		removed = rerr == nil
		conn.Close()
		<-done
		return -1, rerr
	}
}
