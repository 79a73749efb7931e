package honchosync

import (
	"context"
	"fmt"
	"testing"

	"boxmaker/core/honcho"
	"boxmaker/core/secrets"
	"boxmaker/core/testpeer/fakehoncho"
)

// BenchmarkSyncThroughput: the outbox's whole path for 1,000 new records
// of one session: read from the log, appended and fsynced to the outbox,
// sent to the fake Honcho in batches of 100, sent.json written after
// each. It reports messages per second; BenchmarkSendDirect is the anchor
// (the same messages sent by the client alone).
func BenchmarkSyncThroughput(b *testing.B) {
	r := newRig(b, fakehoncho.Options{})
	seq := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		lines := make([]string, 1000)
		for i := range lines {
			seq++
			lines[i] = rec(seq, "user", fmt.Sprintf("message %d about the osprey nest on the north cliff", seq))
		}
		r.appendLog("bench", lines...)
		b.StartTimer()
		if _, err := r.ob.Now(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "msgs/s")
}

func BenchmarkSendDirect(b *testing.B) {
	f := fakehoncho.Start(fakehoncho.Options{})
	defer f.Close()
	c := &honcho.Client{URL: f.URL}
	ctx := context.Background()
	if _, err := c.GetOrCreateSession(ctx, secrets.Value{}, "kt", "bench", []string{"kyle", "ann"}); err != nil {
		b.Fatal(err)
	}
	seq := 0
	b.ResetTimer()
	for range b.N {
		for range 10 {
			msgs := make([]honcho.NewMessage, 100)
			for i := range msgs {
				seq++
				msgs[i] = honcho.NewMessage{PeerID: "ann", Content: fmt.Sprintf("message %d about the osprey nest on the north cliff", seq),
					Metadata: map[string]any{"boxmaker_id": fmt.Sprint(seq), "boxmaker_kind": "user", "boxmaker_session": "bench"}, CreatedAt: "2026-10-01T09:00:00Z"}
			}
			if _, err := c.AddMessages(ctx, secrets.Value{}, "kt", "bench", msgs); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "msgs/s")
}
