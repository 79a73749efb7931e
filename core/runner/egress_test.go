package runner

import (
	"bufio"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/testsupport"

	"github.com/google/go-cmp/cmp"
)

func TestForbiddenAddr(t *testing.T) {
	tests := []struct {
		addr string
		want string
	}{
		{"93.184.216.34", ""},
		{"2606:2800:220:1:248:1893:25c8:1946", ""},
		{"172.32.0.1", ""},
		{"192.0.1.255", ""},
		{"198.20.0.1", ""},
		{"2001:200::1", ""},
		{"127.0.0.1", "loopback (127.0.0.0/8)"},
		{"127.255.0.9", "loopback (127.0.0.0/8)"},
		{"::1", "loopback (::1/128)"},
		{"::ffff:127.0.0.1", "IPv4-mapped (::ffff:0.0.0.0/96)"},
		{"::ffff:93.184.216.34", "IPv4-mapped (::ffff:0.0.0.0/96)"},
		{"169.254.169.254", "link-local (169.254.0.0/16)"},
		{"fe80::1", "link-local (fe80::/10)"},
		{"10.1.2.3", "private (10.0.0.0/8)"},
		{"172.31.255.255", "private (172.16.0.0/12)"},
		{"fd00::2", "unique-local (private) (fc00::/7)"},
		{"0.0.0.0", "this host on this network (0.0.0.0/32)"},
		{"0.1.2.3", "this network (0.0.0.0/8)"},
		{"::", "unspecified (::/128)"},
		{"224.0.0.251", "multicast"},
		{"239.1.2.3", "multicast"},
		{"ff02::1", "multicast"},
		{"ff0e::1", "multicast"},
		{"64:ff9b::93.184.216.34", "IPv4-IPv6 translation (64:ff9b::/96)"},
		{"2002:7f00:1::", "6to4 (2002::/16)"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := ForbiddenAddr(netip.MustParseAddr(tt.addr)); got != tt.want {
				t.Errorf("ForbiddenAddr(%s) = %q, want %q", tt.addr, got, tt.want)
			}
		})
	}
}

// Every entry of the IANA special-purpose registries is refused, by its
// own name: its first address, its last, and one in the middle; and the
// addresses just outside it are not refused for its sake. (Issue 8, item
// 7: 192.0.2.0/24, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24,
// 240.0.0.0/4 and their IPv6 kin went through.)
func TestEveryRegistryRangeIsRefused(t *testing.T) {
	for _, s := range specialPurpose {
		t.Run(s.prefix.String(), func(t *testing.T) {
			first := s.prefix.Masked().Addr()
			last := lastAddr(s.prefix)
			for _, a := range []netip.Addr{first, last, midAddr(first, last)} {
				got := ForbiddenAddr(a)
				if got == "" {
					t.Errorf("%s is not refused", a)
					continue
				}
				// A more specific entry may name it; it must be one that
				// lies inside this one.
				if got != s.name+" ("+s.prefix.String()+")" && !insideEntry(a, s.prefix) {
					t.Errorf("%s is refused as %q, not as %s", a, got, s.name)
				}
			}
			for _, out := range []netip.Addr{first.Prev(), last.Next()} {
				if !out.IsValid() || out.Is4() != first.Is4() {
					continue
				}
				if got := ForbiddenAddr(out); got == s.name+" ("+s.prefix.String()+")" {
					t.Errorf("%s, outside %s, is refused as it", out, s.prefix)
				}
			}
		})
	}
}

// insideEntry reports whether a more specific registry entry within p
// holds a.
func insideEntry(a netip.Addr, p netip.Prefix) bool {
	for _, s := range specialPurpose {
		if s.prefix.Bits() > p.Bits() && p.Contains(s.prefix.Addr()) && s.prefix.Contains(a) {
			return true
		}
	}
	return false
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// midAddr is an address about halfway between first and last.
func midAddr(first, last netip.Addr) netip.Addr {
	f, l := first.AsSlice(), last.AsSlice()
	m := make([]byte, len(f))
	carry := 0
	for i := 0; i < len(f); i++ {
		v := int(f[i]) + int(l[i]) + carry*256
		m[i] = byte(v / 2)
		carry = v % 2
	}
	a, _ := netip.AddrFromSlice(m)
	return a
}

// testProxy serves an EgressProxy in this process on a unix socket. Its
// resolver answers from names; every dial goes to dialTo (a test server
// on loopback), whatever port was asked, and is counted.
type testProxy struct {
	socket string
	dials  atomic.Int64
	asked  atomic.Value // the last address dialled
}

func startTestProxy(t *testing.T, p *EgressProxy, names map[string][]string, dialTo string) *testProxy {
	t.Helper()
	tp := &testProxy{socket: filepath.Join(t.TempDir(), "proxy.sock")}
	p.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, a := range names[host] {
			out = append(out, netip.MustParseAddr(a))
		}
		if out == nil {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return out, nil
	}
	p.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		tp.dials.Add(1)
		tp.asked.Store(addr)
		var d net.Dialer
		return d.DialContext(ctx, network, dialTo)
	}
	if p.Timeout == 0 {
		p.Timeout = 10 * time.Second
	}
	if p.MaxBytes == 0 {
		p.MaxBytes = 1 << 20
	}
	ln, err := net.Listen("unix", tp.socket)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.Serve(t, func(ctx context.Context) error { return p.Serve(ctx, ln) })
	return tp
}

// connect sends one raw request line to the proxy and returns its
// status line and body.
func rawProxyRequest(t *testing.T, socket, request string) (string, string) {
	t.Helper()
	c := testsupport.Dial(t, socket)
	io.WriteString(c, request)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatalf("the proxy's answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.Status, strings.TrimSpace(string(body))
}

func TestEgressProxyRefusesWhatIsNotGranted(t *testing.T) {
	names := map[string][]string{
		"granted.example": {"93.184.216.34"},
		"loop.example":    {"127.0.0.1"},
		"mixed.example":   {"93.184.216.34", "10.0.0.7"},
		"meta.example":    {"169.254.169.254"},
		"mapped.example":  {"::ffff:192.168.0.1"},
		"bench.example":   {"198.18.0.1"},
		"doc.example":     {"93.184.216.34", "203.0.113.9"},
		"doc6.example":    {"2001:db8::1"},
		"srv6.example":    {"5f00::1"},
	}
	p := &EgressProxy{Hosts: []string{"granted.example", "loop.example", "mixed.example", "meta.example",
		"mapped.example", "nowhere.example", "10.0.0.1", "127.1", "bench.example", "doc.example", "doc6.example", "srv6.example"}}
	tp := startTestProxy(t, p, names, "127.0.0.1:9") // never reached
	tests := []struct {
		name, request, status, body string
	}{
		{"a host not granted", "CONNECT other.example:443 HTTP/1.1\r\nHost: other.example:443\r\n\r\n",
			"403 Forbidden", "the host other.example is not granted for this call"},
		{"a granted host in upper case is another name", "CONNECT GRANTED.example:443 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "the host GRANTED.example is not granted for this call"},
		{"an IPv4 literal, even one the proxy was given", "CONNECT 10.0.0.1:80 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "10.0.0.1 is an IP address: the proxy connects to granted DNS names only"},
		{"a short numeric IPv4 form", "CONNECT 127.1:80 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "127.1 is an IP address: the proxy connects to granted DNS names only"},
		{"an IPv6 literal", "CONNECT [::1]:443 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "::1 is an IP address: the proxy connects to granted DNS names only"},
		{"a port other than 80 and 443", "CONNECT granted.example:22 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "port 22: only 80 and 443 are fetched"},
		{"a name that resolves to loopback", "CONNECT loop.example:80 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "loop.example resolves to 127.0.0.1, a loopback (127.0.0.0/8) address: refused"},
		{"a name with one private address among public ones", "CONNECT mixed.example:443 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "mixed.example resolves to 10.0.0.7, a private (10.0.0.0/8) address: refused"},
		{"a name that resolves to the metadata address", "CONNECT meta.example:80 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "meta.example resolves to 169.254.169.254, a link-local (169.254.0.0/16) address: refused"},
		{"a name that resolves to a mapped private address", "CONNECT mapped.example:80 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "mapped.example resolves to 192.168.0.1, a private (192.168.0.0/16) address: refused"},
		{"a name that resolves to the benchmarking range", "CONNECT bench.example:80 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "bench.example resolves to 198.18.0.1, a benchmarking (198.18.0.0/15) address: refused"},
		{"a name with a documentation address among public ones", "CONNECT doc.example:443 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "doc.example resolves to 203.0.113.9, a documentation (TEST-NET-3) (203.0.113.0/24) address: refused"},
		{"a name that resolves to IPv6 documentation", "CONNECT doc6.example:443 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "doc6.example resolves to 2001:db8::1, a documentation (2001:db8::/32) address: refused"},
		{"a name that resolves to an SRv6 SID", "CONNECT srv6.example:443 HTTP/1.1\r\n\r\n",
			"403 Forbidden", "srv6.example resolves to 5f00::1, a segment routing (SRv6) SIDs (5f00::/16) address: refused"},
		{"a name that does not resolve", "CONNECT nowhere.example:80 HTTP/1.1\r\n\r\n",
			"502 Bad Gateway", "cannot resolve nowhere.example: no such host"},
		{"a plain GET", "GET http://granted.example/ HTTP/1.1\r\nHost: granted.example\r\n\r\n",
			"405 Method Not Allowed", "the proxy takes CONNECT only"},
		{"not HTTP", "hello\r\n\r\n", "400 Bad Request", "the request is not HTTP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := rawProxyRequest(t, tp.socket, tt.request)
			if diff := cmp.Diff([]string{tt.status, tt.body}, []string{status, body}); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
	if n := tp.dials.Load(); n != 0 {
		t.Errorf("the proxy dialled %d times for requests it refused", n)
	}
}

func TestEgressProxyAllowsPrivateOnlyWhenTold(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	names := map[string][]string{"loop.example": {"127.0.0.1"}}
	tp := startTestProxy(t, &EgressProxy{Hosts: []string{"loop.example"}, AllowPrivate: true}, names, srv.Listener.Addr().String())
	res := Execute(context.Background(), Request{Tool: "http_fetch", URL: "http://loop.example/", Socket: tp.socket, Limit: 100}, nil)
	if res.Error != "" || res.Content != "ok" {
		t.Fatalf("with AllowPrivate the fetch = %+v, want the body ok", res)
	}
	// The proxy connects to the address it checked, on the URL's port.
	if got := tp.asked.Load(); got != "127.0.0.1:80" {
		t.Errorf("the proxy dialled %v, want 127.0.0.1:80", got)
	}
}

// fetchServer is a test site: /, /big (300 bytes), /binary, a redirect
// on the same host and one to another.
func fetchServer() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "hello from %s%s", r.Host, r.URL.Path)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strings.Repeat("é", 150)) // 300 bytes: a cut may split a character
	})
	mux.HandleFunc("/binary", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte{0, 1, 2, 0xff, 0xfe})
	})
	mux.HandleFunc("/here", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/moved", http.StatusFound) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.example/x", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/port", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://site.example:8080/x", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	return mux
}

func TestFetchThroughTheProxy(t *testing.T) {
	srv := httptest.NewServer(fetchServer())
	defer srv.Close()
	names := map[string][]string{"site.example": {"127.0.0.1"}, "other.example": {"127.0.0.1"}}
	tp := startTestProxy(t, &EgressProxy{Hosts: []string{"site.example"}, AllowPrivate: true}, names, srv.Listener.Addr().String())
	tests := []struct {
		name  string
		url   string
		limit int
		want  Result
	}{
		{"the body, status and content type", "http://site.example/a", 100, Result{Tool: "http_fetch",
			URL: "http://site.example/a", Status: 200, ContentType: "text/plain; charset=utf-8",
			Content: "hello from site.example/a", Size: 25}},
		{"a redirect on the same host is followed", "http://site.example/here", 100, Result{Tool: "http_fetch",
			URL: "http://site.example/moved", Status: 200, ContentType: "text/plain; charset=utf-8",
			Content: "hello from site.example/moved", Size: 29}},
		{"a redirect to another host is not followed", "http://site.example/away", 1000, Result{Tool: "http_fetch",
			URL: "http://site.example/away", Status: 301, ContentType: "text/html; charset=utf-8",
			Content: "<a href=\"http://other.example/x\">Moved Permanently</a>.\n\n", Size: 57,
			Note: "[boxmaker: the redirect to http://other.example/x was not followed: it leaves site.example, the granted host]"}},
		{"a redirect to another port is not followed", "http://site.example/port", 1000, Result{Tool: "http_fetch",
			URL: "http://site.example/port", Status: 302, ContentType: "text/html; charset=utf-8",
			Content: "<a href=\"http://site.example:8080/x\">Found</a>.\n\n", Size: 49,
			Note: "[boxmaker: the redirect to http://site.example:8080/x was not followed: it leaves site.example, the granted host]"}},
		{"redirects stop after five", "http://site.example/loop", 1000, Result{Tool: "http_fetch",
			URL: "http://site.example/loop", Status: 302, ContentType: "text/html; charset=utf-8",
			Content: "<a href=\"/loop\">Found</a>.\n\n", Size: 28,
			Note: "[boxmaker: the redirect to http://site.example/loop was not followed: more than 5 redirects]"}},
		{"a body past the limit is cut on a character with a note", "http://site.example/big", 101, Result{Tool: "http_fetch",
			URL: "http://site.example/big", Status: 200, ContentType: "text/plain",
			Content: strings.Repeat("é", 50), Size: 102, Truncated: true,
			Note: "[boxmaker: body truncated: 300 bytes, the first 100 shown]"}},
		{"a body that is not text is not shown", "http://site.example/binary", 100, Result{Tool: "http_fetch",
			URL: "http://site.example/binary", Status: 200, ContentType: "application/octet-stream", Size: 5,
			Note: "[boxmaker: the body is not text (5 bytes of application/octet-stream); not shown]"}},
		{"a host the proxy was not given", "http://other.example/", 100, Result{Tool: "http_fetch",
			Error: "the egress proxy refused (403): the host other.example is not granted for this call"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Execute(context.Background(), Request{Tool: "http_fetch", URL: tt.url, Socket: tp.socket, Limit: tt.limit}, nil)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFetchOverTLSEndToEnd(t *testing.T) {
	srv := httptest.NewUnstartedServer(fetchServer())
	// The fetch without the CA ends in a handshake error the server
	// would log.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS() // its certificate names example.com
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{"example.com": {"127.0.0.1"}}
	tp := startTestProxy(t, &EgressProxy{Hosts: []string{"example.com"}, AllowPrivate: true}, names, srv.Listener.Addr().String())
	got := Execute(context.Background(), Request{Tool: "http_fetch", URL: "https://example.com/tls", Socket: tp.socket, CAFile: ca, Limit: 100}, nil)
	want := Result{Tool: "http_fetch", URL: "https://example.com/tls", Status: 200, ContentType: "text/plain; charset=utf-8",
		Content: "hello from example.com/tls", Size: 26}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if a := tp.asked.Load(); a != "127.0.0.1:443" {
		t.Errorf("the proxy dialled %v, want 127.0.0.1:443", a)
	}
	// Without the CA the server is not trusted: the proxy passed bytes,
	// the tool checked the certificate.
	got = Execute(context.Background(), Request{Tool: "http_fetch", URL: "https://example.com/tls", Socket: tp.socket, Limit: 100}, nil)
	if !strings.Contains(got.Error, "certificate") {
		t.Errorf("without the CA: %+v, want a certificate error", got)
	}
}

func TestEgressProxyCutsATunnelAtMaxBytes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 50000))
	}))
	defer srv.Close()
	names := map[string][]string{"site.example": {"127.0.0.1"}}
	tp := startTestProxy(t, &EgressProxy{Hosts: []string{"site.example"}, AllowPrivate: true, MaxBytes: 1000},
		names, srv.Listener.Addr().String())
	got := Execute(context.Background(), Request{Tool: "http_fetch", URL: "http://site.example/", Socket: tp.socket, Limit: 100000}, nil)
	if got.Error == "" || got.Size != 0 {
		t.Errorf("a body past the proxy's cap: %+v, want an error (the tunnel was cut)", got)
	}
}

// FuzzEgressProxyRequest sends the proxy any bytes as a request: it must
// never dial for a host it was not given, nor for a port but 80 and 443.
func FuzzEgressProxyRequest(f *testing.F) {
	for _, s := range []string{
		"CONNECT site.example:443 HTTP/1.1\r\n\r\n",
		"CONNECT other.example:443 HTTP/1.1\r\n\r\n",
		"CONNECT 127.0.0.1:80 HTTP/1.1\r\n\r\n",
		"CONNECT [::1]:443 HTTP/1.1\r\n\r\n",
		"CONNECT site.example:22 HTTP/1.1\r\n\r\n",
		"CONNECT site.example.:443 HTTP/1.1\r\n\r\n",
		"GET http://site.example/ HTTP/1.1\r\nHost: site.example\r\n\r\n",
		"CONNECT site.example%2f:443 HTTP/1.1\r\n\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, request string) {
		var dialled []string
		p := &EgressProxy{
			Hosts: []string{"site.example"}, Timeout: 100 * time.Millisecond, MaxBytes: 1 << 10,
			Resolve: func(ctx context.Context, host string) ([]netip.Addr, error) {
				return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
			},
			Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				dialled = append(dialled, addr)
				return nil, errors.New("no dialling in the fuzz test")
			},
		}
		client, server := net.Pipe()
		done := make(chan struct{})
		go func() {
			p.handle(context.Background(), server)
			close(done)
		}()
		client.SetDeadline(time.Now().Add(2 * time.Second))
		go func() {
			io.WriteString(client, request)
		}()
		io.Copy(io.Discard, client)
		client.Close()
		<-done
		for _, a := range dialled {
			if a != "93.184.216.34:80" && a != "93.184.216.34:443" {
				t.Errorf("the proxy dialled %s for %q", a, request)
			}
		}
		if len(dialled) > 0 && !strings.HasPrefix(request, "CONNECT site.example:") {
			t.Errorf("the proxy dialled for %q", request)
		}
	})
}
