package broker

import (
	"strings"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/runbook"
)

// TestGatewaysAnswerInTheUnreachableLine: gatewayd refusing to post an
// approval is quoted in the gateway-unreachable line in its public words,
// so that the line ends with gateway-unreachable's link alone, the entry
// the runbook documents for it.
func TestGatewaysAnswerInTheUnreachableLine(t *testing.T) {
	refusal := runbook.Refuse(runbook.MattermostUnreachable, "cannot post it in Mattermost: 503 Service Unavailable")
	re := &daemon.RemoteError{Text: refusal.Error(), Entry: runbook.MattermostUnreachable.String(), Public: refusal.Text}
	line := runbook.Refuse(runbook.GatewayUnreachable, "approval %s: gatewayd is not reachable at %s: %s; bxctl can still answer it", "abc234", "/run/g.sock", unreachable(re)).Error()
	want := "approval abc234: gatewayd is not reachable at /run/g.sock: gatewayd answered: cannot post it in Mattermost: 503 Service Unavailable; bxctl can still answer it; " + runbook.Link(runbook.GatewayUnreachable)
	if line != want || strings.Count(line, "see docs/") != 1 {
		t.Errorf("got  %q\nwant %q", line, want)
	}
}
