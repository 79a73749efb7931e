package testsupport

import (
	"io"
	"net/http"
	"testing"
)

// HTTP sends one request with c and returns the answer's status and its
// whole body; a request that cannot be made or sent, or a body that
// cannot be read, fails the test.
func HTTP(tb testing.TB, c *http.Client, method, url string, body io.Reader) (int, []byte) {
	tb.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, data
}
