package inferproxy

import (
	"bufio"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
)

// The benchmarks compare the same requests to the stand-in over TCP
// loopback, directly and through inferproxy's unix socket, and report the
// median of each request's time (median-µs) besides Go's mean (ns/op).

func benchTargets(b *testing.B) (direct *http.Client, directURL string, proxied *http.Client) {
	up := startStandin(b, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{When: "hi", Content: "one two three four"}}}})
	s := serveProxy(b, Options{Upstream: up.URL(), Burst: 4, QueueTimeout: time.Minute})
	return &http.Client{}, up.URL(), unixClient(s.opts.Listen)
}

func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Nanoseconds()) / 1e3
}

func benchGet(b *testing.B, c *http.Client, url string) {
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		resp, err := c.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(median(ds), "median-µs")
}

func BenchmarkHealth(b *testing.B) {
	direct, url, proxied := benchTargets(b)
	b.Run("direct", func(b *testing.B) { benchGet(b, direct, url+"/health") })
	b.Run("proxied", func(b *testing.B) { benchGet(b, proxied, "http://infer/health") })
}

// benchFirstByte measures from sending a streamed chat request to reading
// its first event line, then reads the rest so the connection is reused.
func benchFirstByte(b *testing.B, c *http.Client, url string) {
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		resp, err := c.Post(url, "application/json", strings.NewReader(streamBody))
		if err != nil {
			b.Fatal(err)
		}
		r := bufio.NewReader(resp.Body)
		if _, err := r.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		io.Copy(io.Discard, r)
		resp.Body.Close()
	}
	b.ReportMetric(median(ds), "median-µs")
}

func BenchmarkFirstStreamedByte(b *testing.B) {
	direct, url, proxied := benchTargets(b)
	b.Run("direct", func(b *testing.B) { benchFirstByte(b, direct, url+"/v1/chat/completions") })
	b.Run("proxied", func(b *testing.B) { benchFirstByte(b, proxied, "http://infer/v1/chat/completions") })
}
