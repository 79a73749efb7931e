package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
)

// BenchmarkAsk is one Ask of a session, two ways, alternating: through
// yaag's agent client (the Ask, its options, the stream and watchdog, the
// answer), and the same agent.ask request sent bare on the loop socket
// with daemon.Call, which is what loopd (with the stand-in behind
// inferproxy) takes by itself. yaag's own time per Ask is the difference:
// own-ms/op. The same process does both, so the CPU times include loopd's
// and the stand-in's alike; cpu-ms/op is for one Ask through yaag.
func BenchmarkAsk(b *testing.B) {
	r := newRig(b, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{When: "Bench", Content: "ok"}}}})
	viaYaag := r.spawn(b, Spec{})
	bare := r.spawn(b, Spec{Run: "r-bench", Key: "A2", Definition: "bare"})
	ctx := context.Background()
	var yaagWall, bareWall, yaagCPU time.Duration
	for i := 0; i < b.N; i++ {
		for j := 0; j < 2; j++ {
			start, startCPU := time.Now(), testsupport.CPUTime()
			if (i+j)%2 == 0 {
				if _, err := viaYaag.Ask(ctx, Ask{Key: "A1/1", Prompt: "Bench.", Stall: time.Minute}, func(Event) {}); err != nil {
					b.Fatal(err)
				}
				yaagWall += time.Since(start)
				yaagCPU += testsupport.CPUTime() - startCPU
			} else {
				var res loopwire.AskResult
				err := daemon.Call(ctx, r.sock, loopwire.KindAgentAsk, loopwire.AskRequest{Session: bare.ID(), Text: "Bench."}, &res, func(json.RawMessage) error { return nil })
				if err != nil || res.Reply != "ok" {
					b.Fatal(res, err)
				}
				bareWall += time.Since(start)
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(yaagWall.Microseconds())/1000/n, "yaag-ms/op")
	b.ReportMetric(float64(bareWall.Microseconds())/1000/n, "loopd-ms/op")
	b.ReportMetric(float64((yaagWall-bareWall).Microseconds())/1000/n, "own-ms/op")
	b.ReportMetric(float64(yaagCPU.Microseconds())/1000/n, "cpu-ms/op")
}
