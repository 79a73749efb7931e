package runner

import (
	"context"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/runbook"
)

func TestFetchArgsKeepTheToolOffTheNetwork(t *testing.T) {
	r := newTestRunner(t, func(c *Config) {
		c.EgressNetwork, c.EgressDir, c.EgressCAFile = "egress-net", "/srv/egress", "/etc/ssl/certs/ca-certificates.crt"
	})
	c := Call{ID: "f1", Tool: "http_fetch", URL: "https://docs.example/a"}
	name := r.ContainerName(c.ID)
	args := r.Args(c, name, nil)
	var networks []string
	for i, a := range args {
		if a == "--network" {
			networks = append(networks, args[i+1])
		}
	}
	if diff := cmp.Diff([]string{"none"}, networks); diff != "" {
		t.Errorf("the tool's --network (-want +got):\n%s", diff)
	}
	for _, want := range []string{"/srv/egress/" + name + ":/egress:ro", "/etc/ssl/certs/ca-certificates.crt:/egress-ca.pem:ro"} {
		if !slices.Contains(args, want) {
			t.Errorf("the tool's mounts lack %s: %q", want, args)
		}
	}
	if last := args[len(args)-1]; last != `{"tool":"http_fetch","path":"","limit":65536,"timeout_ms":20000,"url":"https://docs.example/a","socket":"/egress/proxy.sock","ca_file":"/egress-ca.pem"}` {
		t.Errorf("the request: %s", last)
	}
	proxy := r.ProxyArgs(name+"-egress", "/srv/egress/"+name, []string{"docs.example"})
	for _, want := range [][]string{{"--network", "egress-net"}, {"--cap-drop", "all"}, {"--host", "docs.example"}, {"-v", "/srv/egress/" + name + ":/egress:rw"}} {
		i := slices.Index(proxy, want[0])
		for i >= 0 && proxy[i+1] != want[1] {
			j := slices.Index(proxy[i+1:], want[0])
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			t.Errorf("the proxy's command line lacks %q: %q", want, proxy)
		}
	}
	if slices.Contains(proxy, "--allow-private") {
		t.Errorf("the proxy allows private addresses though the config does not: %q", proxy)
	}
}

// egressSite is a network of this test run and a web server on it
// (busybox httpd in a container from the tools image), reachable from the
// egress proxy by its container name.
type egressSite struct {
	network string
	host    string // the web container's name, a DNS name on the network
	ip      string
}

func podmanOut(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "podman", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func startEgressSite(t *testing.T) egressSite {
	t.Helper()
	s := egressSite{network: "bxegress-" + testInstance, host: "bxweb-" + testInstance}
	podmanOut(t, "network", "create", s.network)
	t.Cleanup(func() { exec.Command("podman", "network", "rm", "-f", s.network).Run() })

	www := resolvedTempDir(t)
	os.Mkdir(filepath.Join(www, "cgi-bin"), 0o755)
	writeTestFile(t, filepath.Join(www, "index.html"), "hello from the web container\n")
	writeTestFile(t, filepath.Join(www, "big.txt"), strings.Repeat("0123456789", 500))
	writeTestFile(t, filepath.Join(www, "cgi-bin", "away"),
		"#!/bin/sh\nprintf 'Status: 302 Found\\r\\nLocation: http://elsewhere.example/\\r\\nContent-Type: text/plain\\r\\n\\r\\nmoved\\n'\n")
	os.Chmod(filepath.Join(www, "cgi-bin", "away"), 0o755)
	podmanOut(t, "run", "-d", "--rm", "--pull", "never", "--name", s.host, "--label", "boxmaker="+testInstance,
		"--network", s.network, "--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=256:256",
		"-v", www+":/www:ro", testImage, "/bin/busybox", "httpd", "-f", "-p", "80", "-h", "/www")
	t.Cleanup(func() { exec.Command("podman", "rm", "-f", "-t", "0", s.host).Run() })
	s.ip = podmanOut(t, "inspect", "--format", `{{(index .NetworkSettings.Networks "`+s.network+`").IPAddress}}`, s.host)
	return s
}

// TestFetchThroughPodman fetches through a real proxy container on a real
// network, from a tool container that has none.
func TestFetchThroughPodman(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow Podman suite (21 s at load 15): go test without -short runs it")
	}
	site := startEgressSite(t)
	egress := func(allowPrivate bool) func(*Config) {
		return func(c *Config) {
			c.EgressNetwork, c.EgressDir, c.EgressAllowPrivate = site.network, resolvedTempDir(t), allowPrivate
		}
	}
	page := "http://" + site.host + "/index.html"
	tests := []struct {
		name   string
		change func(*Config)
		call   Call
		hosts  []string // the proxy's hosts; nil: the URL's, as Run does
		want   Result
	}{
		{
			name: "a granted host is fetched", change: egress(true),
			call: Call{URL: page},
			want: Result{Tool: "http_fetch", URL: page, Status: 200, ContentType: "text/html",
				Content: "hello from the web container\n", Size: 29},
		},
		{
			name: "the proxy refuses a host it was not given, whatever the tool asks", change: egress(true),
			call: Call{URL: page}, hosts: []string{"granted.example"},
			want: Result{Tool: "http_fetch", Error: "the egress proxy refused (403): the host " + site.host + " is not granted for this call"},
		},
		{
			name: "the proxy refuses an IP literal, even one it was given", change: egress(true),
			call: Call{URL: "http://" + site.ip + "/index.html"}, hosts: []string{site.ip},
			want: Result{Tool: "http_fetch", Error: "the egress proxy refused (403): " + site.ip + " is an IP address: the proxy connects to granted DNS names only"},
		},
		{
			name: "a name that resolves to loopback is refused", change: egress(false),
			call: Call{URL: "http://localhost/"},
			want: Result{Tool: "http_fetch", Error: "the egress proxy refused (403): localhost resolves to 127.0.0.1, a loopback (127.0.0.0/8) address: refused"},
		},
		{
			name: "a name that resolves to a private address is refused unless allowed", change: egress(false),
			call: Call{URL: page},
			want: Result{Tool: "http_fetch", Error: "the egress proxy refused (403): " + site.host + " resolves to " + site.ip + ", a " + ForbiddenAddr(netip.MustParseAddr(site.ip)) + " address: refused"},
		},
		{
			name: "a redirect to another host is not followed", change: egress(true),
			call: Call{URL: "http://" + site.host + "/cgi-bin/away"},
			want: Result{Tool: "http_fetch", URL: "http://" + site.host + "/cgi-bin/away", Status: 302, ContentType: "text/plain",
				Content: "moved\n", Size: 6,
				Note: "[boxmaker: the redirect to http://elsewhere.example/ was not followed: it leaves " + site.host + ", the granted host]"},
		},
		{
			name: "a body past the output limit is cut with a note",
			change: func(c *Config) {
				egress(true)(c)
				c.OutputLimit = 1000
			},
			call: Call{URL: "http://" + site.host + "/big.txt"},
			want: Result{Tool: "http_fetch", URL: "http://" + site.host + "/big.txt", Status: 200, ContentType: "text/plain",
				Content: strings.Repeat("0123456789", 100), Size: 1001, Truncated: true,
				Note: "[boxmaker: body truncated: 5000 bytes, the first 1000 shown]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRunner(t, tt.change)
			tt.call.ID, tt.call.Tool = callID(t), "http_fetch"
			var got Result
			var err error
			if tt.hosts == nil {
				got, err = r.Run(context.Background(), tt.call)
			} else {
				got, err = r.fetchThrough(context.Background(), tt.call, tt.hosts)
			}
			if err != nil {
				t.Fatalf("the fetch: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if left, _ := os.ReadDir(r.cfg.EgressDir); len(left) != 0 {
				t.Errorf("the egress directory holds %d entries after the call", len(left))
			}
		})
	}
}

func TestFetchWithoutItsProxyIsRunnerUnavailable(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		said   string
	}{
		{"a network Podman does not have", func(c *Config) {
			c.EgressNetwork, c.EgressDir = "bxegress-no-such-network", resolvedTempDir(t)
		}, "network not found"},
		{"a proxy that does not make its socket in time", func(c *Config) {
			c.EgressNetwork, c.EgressDir, c.EgressStartTimeout = "podman", resolvedTempDir(t), time.Millisecond
		}, "the egress proxy did not create its socket within 1ms"},
		{"no egress network configured", func(c *Config) { c.EgressDir = resolvedTempDir(t) },
			"[runner] egress_network is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRunner(t, tt.change)
			_, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "http_fetch", URL: "http://docs.example/"})
			if e, ok := runbook.EntryOf(err); !ok || e != runbook.RunnerUnavailable {
				t.Fatalf("err = %v, want runner-unavailable", err)
			}
			if said, _ := PodmanSaid(err); !strings.Contains(said, tt.said) {
				t.Errorf("what the operator is told: %q, want it to hold %q", said, tt.said)
			}
		})
	}
}
