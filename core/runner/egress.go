package runner

// The egress proxy: the only way http_fetch reaches the network. It runs
// as `boxmaker egress-proxy` in a container of its own on [runner]
// egress_network, one per call, and listens on a unix socket that the
// runner bind-mounts into the tool's container (which has no network).
//
// It speaks one thing: HTTP CONNECT to host:80 or host:443. It tunnels a
// connection only to a host it was started with (the call's granted
// host), never to an IP literal, and only when every address the name
// resolves to is public; it connects to the very address it checked, so a
// name that resolves differently a moment later (DNS rebinding) changes
// nothing. TLS runs end to end between the tool and the server: the proxy
// sees host names and byte counts, never content.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// EgressProxy tunnels CONNECT requests to the hosts it was given.
type EgressProxy struct {
	// Hosts are the DNS names it connects to, lower case; any other
	// name is refused.
	Hosts []string
	// AllowPrivate lets names resolve into loopback, link-local and
	// private ranges. Only tests on one machine need it.
	AllowPrivate bool
	// Timeout bounds one tunnel, from the request to the last byte.
	Timeout time.Duration
	// MaxBytes bounds what one tunnel carries from the server.
	MaxBytes int64
	// Resolve looks a name up; nil: the system's resolver.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects; nil: a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Log receives one line per request: what was asked and what the
	// proxy did. nil: nothing is logged.
	Log io.Writer

	logMu sync.Mutex
}

// Serve answers connections on ln until ctx ends, then closes ln and
// waits for the tunnels it opened.
func (p *EgressProxy) Serve(ctx context.Context, ln net.Listener) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.handle(ctx, c)
		}()
	}
}

// proxyRefusal is the proxy's answer when it does not open a tunnel.
type proxyRefusal struct {
	status int
	reason string
}

func (p *EgressProxy) logf(format string, args ...any) {
	if p.Log == nil {
		return
	}
	p.logMu.Lock()
	defer p.logMu.Unlock()
	fmt.Fprintf(p.Log, "egress-proxy: "+format+"\n", args...)
}

func (p *EgressProxy) handle(ctx context.Context, client net.Conn) {
	defer client.Close()
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	client.SetDeadline(time.Now().Add(p.Timeout))
	br := bufio.NewReaderSize(client, 4096)
	req, err := http.ReadRequest(br)
	if err != nil {
		p.logf("unreadable request: %v", err)
		writeRefusal(client, proxyRefusal{http.StatusBadRequest, "the request is not HTTP"})
		return
	}
	server, addr, ref := p.open(ctx, req)
	if ref != nil {
		p.logf("%s %s: refused: %s", req.Method, req.RequestURI, ref.reason)
		writeRefusal(client, *ref)
		return
	}
	defer server.Close()
	p.logf("%s %s: connected to %s", req.Method, req.RequestURI, addr)
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	server.SetDeadline(time.Now().Add(p.Timeout))
	done := make(chan struct{})
	go func() {
		// What the client sent after its request was read into br.
		io.Copy(server, br)
		if cw, ok := server.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		close(done)
	}()
	n, _ := io.Copy(client, io.LimitReader(server, p.MaxBytes))
	if n >= p.MaxBytes {
		p.logf("%s: cut at %d bytes", req.RequestURI, p.MaxBytes)
	}
	client.Close()
	server.Close()
	<-done
}

// open checks a request and connects to the address it names.
func (p *EgressProxy) open(ctx context.Context, req *http.Request) (net.Conn, netip.AddrPort, *proxyRefusal) {
	if req.Method != http.MethodConnect {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusMethodNotAllowed, "the proxy takes CONNECT only"}
	}
	host, port, err := net.SplitHostPort(req.RequestURI)
	if err != nil {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusBadRequest, fmt.Sprintf("%q is not host:port", req.RequestURI)}
	}
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil || looksLikeIPv4(host) {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusForbidden, fmt.Sprintf("%s is an IP address: the proxy connects to granted DNS names only", host)}
	}
	if !slices.Contains(p.Hosts, host) {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusForbidden, fmt.Sprintf("the host %s is not granted for this call", host)}
	}
	if port != "80" && port != "443" {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusForbidden, fmt.Sprintf("port %s: only 80 and 443 are fetched", port)}
	}
	resolve := p.Resolve
	if resolve == nil {
		resolve = func(ctx context.Context, h string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", h)
		}
	}
	addrs, err := resolve(ctx, host)
	if err != nil {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusBadGateway, fmt.Sprintf("cannot resolve %s: %v", host, lookupProblem(err))}
	}
	if len(addrs) == 0 {
		return nil, netip.AddrPort{}, &proxyRefusal{http.StatusBadGateway, fmt.Sprintf("%s has no address", host)}
	}
	// One address outside the public ranges refuses the name: a name that
	// mixes them is someone's attempt at the other kind.
	for i, a := range addrs {
		addrs[i] = a.Unmap()
		if why := ForbiddenAddr(addrs[i]); why != "" && !p.AllowPrivate {
			return nil, netip.AddrPort{}, &proxyRefusal{http.StatusForbidden,
				fmt.Sprintf("%s resolves to %s, a %s address: refused", host, addrs[i], why)}
		}
	}
	dial := p.Dial
	if dial == nil {
		var d net.Dialer
		dial = d.DialContext
	}
	var pn uint16 = 80
	if port == "443" {
		pn = 443
	}
	var last error
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a, pn)
		c, err := dial(ctx, "tcp", ap.String())
		if err == nil {
			return c, ap, nil
		}
		last = err
	}
	return nil, netip.AddrPort{}, &proxyRefusal{http.StatusBadGateway, fmt.Sprintf("cannot connect to %s: %v", host, dialProblem(last))}
}

// looksLikeIPv4 catches what resolvers read as an IPv4 address though
// netip does not: 127.1, 0x7f.1, 2130706433.
func looksLikeIPv4(h string) bool {
	last := h[strings.LastIndex(h, ".")+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") || strings.HasPrefix(last, "0X") {
		return true
	}
	for _, c := range last {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// lookupProblem is a resolver error without the resolver's address.
func lookupProblem(err error) string {
	var de *net.DNSError
	if errors.As(err, &de) {
		if de.IsNotFound {
			return "no such host"
		}
		return de.Err
	}
	return err.Error()
}

func dialProblem(err error) string {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	return err.Error()
}

func writeRefusal(w io.Writer, r proxyRefusal) {
	body := r.reason + "\n"
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		r.status, http.StatusText(r.status), len(body), body)
}

// specialPurpose are the IANA IPv4 and IPv6 Special-Purpose Address
// Registries, whole (as of 2025: RFC 6890 and its updates), every entry
// whatever its "globally reachable" column says: the proxy connects to
// ordinary unicast addresses only. docs/runner.md lists them.
var specialPurpose = func() []special {
	entries := [][2]string{
		// IPv4 (iana-ipv4-special-registry)
		{"0.0.0.0/8", "this network"},
		{"0.0.0.0/32", "this host on this network"},
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "shared (carrier-grade NAT)"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "IETF protocol assignments"},
		{"192.0.0.0/29", "IPv4 service continuity prefix"},
		{"192.0.0.8/32", "IPv4 dummy address"},
		{"192.0.0.9/32", "port control protocol anycast"},
		{"192.0.0.10/32", "TURN anycast"},
		{"192.0.0.170/32", "NAT64/DNS64 discovery"},
		{"192.0.0.171/32", "NAT64/DNS64 discovery"},
		{"192.0.2.0/24", "documentation (TEST-NET-1)"},
		{"192.31.196.0/24", "AS112-v4"},
		{"192.52.193.0/24", "AMT"},
		{"192.88.99.0/24", "deprecated 6to4 relay anycast"},
		{"192.168.0.0/16", "private"},
		{"192.175.48.0/24", "direct delegation AS112 service"},
		{"198.18.0.0/15", "benchmarking"},
		{"198.51.100.0/24", "documentation (TEST-NET-2)"},
		{"203.0.113.0/24", "documentation (TEST-NET-3)"},
		{"240.0.0.0/4", "reserved"},
		{"255.255.255.255/32", "limited broadcast"},
		// IPv6 (iana-ipv6-special-registry)
		{"::1/128", "loopback"},
		{"::/128", "unspecified"},
		{"::ffff:0:0/96", "IPv4-mapped"},
		{"64:ff9b::/96", "IPv4-IPv6 translation"},
		{"64:ff9b:1::/48", "local-use IPv4-IPv6 translation"},
		{"100::/64", "discard-only"},
		{"100:0:0:1::/64", "dummy IPv6 prefix"},
		{"2001::/23", "IETF protocol assignments"},
		{"2001::/32", "TEREDO"},
		{"2001:1::1/128", "port control protocol anycast"},
		{"2001:1::2/128", "TURN anycast"},
		{"2001:1::3/128", "DNS-SD service registration protocol anycast"},
		{"2001:2::/48", "benchmarking"},
		{"2001:3::/32", "AMT"},
		{"2001:4:112::/48", "AS112-v6"},
		{"2001:10::/28", "deprecated ORCHID"},
		{"2001:20::/28", "ORCHIDv2"},
		{"2001:30::/28", "drone remote ID protocol entity tags"},
		{"2001:db8::/32", "documentation"},
		{"2002::/16", "6to4"},
		{"2620:4f:8000::/48", "direct delegation AS112 service"},
		{"3fff::/20", "documentation"},
		{"5f00::/16", "segment routing (SRv6) SIDs"},
		{"fc00::/7", "unique-local (private)"},
		{"fe80::/10", "link-local"},
	}
	out := make([]special, len(entries))
	for i, e := range entries {
		out[i] = special{netip.MustParsePrefix(e[0]), e[1]}
	}
	return out
}()

type special struct {
	prefix netip.Prefix
	name   string
}

// ForbiddenAddr says which special-purpose range a is in, as "name
// (prefix)", the most specific entry of the registries naming it, or
// "multicast"; "" for an address the proxy may connect to. The proxy
// judges resolved addresses after unmapping them (an IPv4-mapped answer
// is the IPv4 address it maps, which is what a connection reaches); given
// one, this refuses it as the registry's ::ffff:0:0/96.
func ForbiddenAddr(a netip.Addr) string {
	if !a.IsValid() {
		return "invalid"
	}
	var best *special
	for i := range specialPurpose {
		s := &specialPurpose[i]
		if s.prefix.Contains(a) && (best == nil || s.prefix.Bits() > best.prefix.Bits()) {
			best = s
		}
	}
	switch {
	case best != nil:
		return best.name + " (" + best.prefix.String() + ")"
	case a.IsMulticast():
		return "multicast"
	case a.Zone() != "":
		return "scoped"
	}
	return ""
}
