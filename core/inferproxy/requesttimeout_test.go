package inferproxy

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
)

func startProxyWithTimeout(t *testing.T, upstream string, timeout time.Duration) string {
	t.Helper()
	return serveProxy(t, Options{Upstream: upstream, RequestTimeout: timeout}).opts.Listen
}

// A client that sends its headers, or its headers and part of its body,
// and then nothing, is closed at the request timeout, as every Boxmaker
// socket closes a request that does not arrive whole (issue 8, item 6).
func TestAHalfSentRequestIsClosedAtTheTimeout(t *testing.T) {
	up := startStandin(t, llamastandin.Options{})
	sock := startProxyWithTimeout(t, up.URL(), 300*time.Millisecond)
	for name, sent := range map[string]string{
		"half the headers": "POST /v1/chat/completions HTTP/1.1\r\nHost: infer\r\n",
		"half the body":    "POST /v1/chat/completions HTTP/1.1\r\nHost: infer\r\nContent-Length: 100\r\n\r\n{\"messages\":",
	} {
		t.Run(name, func(t *testing.T) {
			c, err := net.Dial("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := io.WriteString(c, sent); err != nil {
				t.Fatal(err)
			}
			// Far beyond the timeout (and below the 30 s header timeout inferproxy had before): the proxy must have closed the
			// connection by then (a read ends), whatever it answered.
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, err = io.ReadAll(c)
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("the connection was still open 10 s after a 300 ms request timeout")
			}
		})
	}
}

// The timeout bounds the request only: an answer that streams for longer
// than it arrives whole.
func TestAnAnswerMayStreamLongerThanTheRequestTimeout(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: strings.Repeat("word ", 10)}}}})
	// 100 ms before the answer and between its chunks: the stream lasts
	// several times the request timeout.
	if err := up.SetStall(llamastandin.StallSlow, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	sock := startProxyWithTimeout(t, up.URL(), 200*time.Millisecond)
	c := unixClient(sock)
	status, body := get(t, c, "POST", "http://infer/v1/chat/completions", streamBody)
	if status != 200 || !strings.HasSuffix(body, "data: [DONE]\n\n") {
		t.Fatalf("status %d, body ending %q", status, body[max(0, len(body)-60):])
	}
}
