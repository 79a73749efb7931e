package gateway_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"boxmaker/core/gateway"
	"boxmaker/core/loopwire"
	"boxmaker/core/testpeer/fakemattermost"
)

// median of ds, in ms.
func medianMS(ds []time.Duration) float64 {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[len(ds)/2]) / float64(time.Millisecond)
}

// BenchmarkPostToLoop: from a post made in the fake Mattermost (its
// posted event sent) to the turn reaching loopd, through gatewayd's
// whole path (the event read and judged, the state written, the
// placeholder posted): metric post-to-loop-ms (median). The anchor,
// rest-roundtrip-ms, is one REST request to the same fake in the same run.
func BenchmarkPostToLoop(b *testing.B) {
	w := newWorld(b)
	reached := make(chan time.Time, 1)
	w.loop.arrived = func() { reached <- time.Now() }
	benchPosts(b, w, "post-to-loop-ms", func(posted time.Time) time.Duration {
		select {
		case t1 := <-reached:
			return t1.Sub(posted)
		case <-time.After(10 * time.Second):
			b.Fatalf("the turn never reached loopd:\n%s", w.log)
		}
		return 0
	})
}

// BenchmarkFirstTokenToUpdate: from loopd's first text event to the
// reply's first edit answered by the fake: metric first-update-ms
// (median), anchor rest-roundtrip-ms as above.
func BenchmarkFirstTokenToUpdate(b *testing.B) {
	edited := make(chan time.Time, 16)
	w := newWorld(b, fakemattermost.Options{Observe: func(r fakemattermost.Request) {
		if r.Method == "PUT" && strings.HasSuffix(r.Path, "/patch") && strings.Contains(string(r.Body), "first words") {
			select {
			case edited <- time.Now():
			default:
			}
		}
	}})
	first := make(chan time.Time, 1)
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		first <- time.Now()
		return emit(loopwire.Event{Event: loopwire.EventText, Text: "first words"})
	}
	benchPosts(b, w, "first-update-ms", func(time.Time) time.Duration {
		var t0, t1 time.Time
		select {
		case t0 = <-first:
		case <-time.After(10 * time.Second):
			b.Fatal("no turn")
		}
		select {
		case t1 = <-edited:
		case <-time.After(10 * time.Second):
			b.Fatal("no edit")
		}
		return t1.Sub(t0)
	})
}

// benchPosts starts gatewayd and, b.N times, posts "hello" in the owner's
// DM and records what measure returns once it is answered (it is given
// the time of the post), then the anchor; it reports their medians, as
// metric and rest-roundtrip-ms.
func benchPosts(b *testing.B, w *world, metric string, measure func(posted time.Time) time.Duration) {
	w.start()
	dm := w.mm.DM(w.bot.ID, w.owner.ID)
	client := &gateway.Client{URL: w.mm.URL, Token: w.token, HTTP: gateway.NewHTTPClient(nil, 10*time.Second)}
	var lat, anchor []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		posted := time.Now()
		if _, err := w.mm.PostAs(w.owner.ID, dm.ID, "", "hello"); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, measure(posted))
		anchor = append(anchor, restRoundTrip(b, client))
	}
	b.StopTimer()
	b.ReportMetric(medianMS(lat), metric)
	b.ReportMetric(medianMS(anchor), "rest-roundtrip-ms")
}

// restRoundTrip is the anchor both benchmarks report: one users/me
// request to the fake, timed.
func restRoundTrip(b *testing.B, client *gateway.Client) time.Duration {
	t := time.Now()
	if _, err := client.Me(context.Background()); err != nil {
		b.Fatal(err)
	}
	return time.Since(t)
}
