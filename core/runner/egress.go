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

// The ranges a fetched name may not resolve into, besides what netip
// classifies itself.
var (
	sharedRange  = netip.MustParsePrefix("100.64.0.0/10") // carrier-grade NAT
	thisNetwork  = netip.MustParsePrefix("0.0.0.0/8")
	broadcast    = netip.MustParseAddr("255.255.255.255")
	nat64Range   = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour    = netip.MustParsePrefix("2002::/16")
	reservedFour = netip.MustParsePrefix("240.0.0.0/4")
)

// ForbiddenAddr says which kind of non-public address a is (loopback,
// link-local, private, ...), or "" for an address the proxy may connect
// to. An IPv6 address that embeds an IPv4 one (NAT64, 6to4) is judged by
// the address it embeds.
func ForbiddenAddr(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsLoopback():
		return "loopback"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsPrivate():
		return "private"
	case a.IsUnspecified(), thisNetwork.Contains(a):
		return "unspecified"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	case a == broadcast, reservedFour.Contains(a):
		return "reserved"
	case sharedRange.Contains(a):
		return "shared (carrier-grade NAT)"
	case nat64Range.Contains(a):
		b := a.As16()
		return ForbiddenAddr(netip.AddrFrom4([4]byte(b[12:16])))
	case sixToFour.Contains(a):
		b := a.As16()
		return ForbiddenAddr(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return ""
}
