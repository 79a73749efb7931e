package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/inferproxy"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
)

// benchSession writes a session of n turns, each a user message, an
// assistant record with a tool call, the tool's result and the answer
// (4 records a turn, about 1 KiB), and returns the sessions directory.
func benchSession(b *testing.B, turns int) string {
	b.Helper()
	dir := b.TempDir()
	log, err := CreateLog(dir, "bench")
	if err != nil {
		b.Fatal(err)
	}
	recs := []*Record{{Time: t0, Type: TypeBaseline, System: DefaultSystemPrompt, Memory: "I am Box.\n§\nThe owner writes Go.", Tools: ToolDefinitions}}
	for i := range turns {
		id := fmt.Sprintf("call_%d", i)
		recs = append(recs,
			&Record{Time: t0, Type: TypeUser, Who: "owner", Text: fmt.Sprintf("Please look at file number %d and tell me what it does.", i)},
			&Record{Time: t0, Type: TypeAssistant, Reasoning: "I should read the file first.", Timings: Timings{PromptN: 40, CacheN: 4000 + i*100, PredictedN: 30},
				ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"/home/owner/src/f%d.go"}`, i)}}},
			&Record{Time: t0, Type: TypeTool, CallID: id, Name: "read_file", Outcome: "allowed", Text: "package f\n\n// F does a thing.\nfunc F() int { return 42 }\n"},
			&Record{Time: t0, Type: TypeAssistant, Text: "It defines F, which returns 42. Nothing else is in the file.", Timings: Timings{PromptN: 60, CacheN: 4100 + i*100, PredictedN: 20}},
		)
	}
	if err := log.Append(recs...); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkTurnOverhead is loopd's own work for one turn at turn 1, 100
// and 1,000 of a session, everything but the model's: find the session's
// records (the last turn's, after checking the file is unchanged) and
// their encoded messages, encode the request (the kept messages and the
// new user's, as the parts sent), append and fsync the user and
// assistant records, encode their messages, and keep it all for the next
// turn. The whole= variants do the turn as loopd did before: the whole
// request encoded (Messages and json.Marshal of every record) and the
// session's records copied to append the turn's: the anchor of
// docs/performance.md's "loopd: a turn".
func BenchmarkTurnOverhead(b *testing.B) {
	for _, at := range []int{1, 100, 1000} {
		for _, whole := range []bool{false, true} {
			b.Run(fmt.Sprintf("at=%d/whole=%v", at, whole), func(b *testing.B) { benchTurnOverhead(b, at, whole) })
		}
	}
}

func benchTurnOverhead(b *testing.B, at int, whole bool) {
	dir := benchSession(b, at-1)
	e := &Engine{SessionsDir: dir}
	c := &Client{Model: "m"}
	log, recs, err := e.load("bench")
	if err != nil {
		b.Fatal(err)
	}
	conv, err := newConversation(log, recs)
	if err != nil {
		b.Fatal(err)
	}
	e.rememberTurn(log, recs, conv)
	b.ResetTimer()
	defer testsupport.ReportCPU(b, testsupport.CPUTime())
	for b.Loop() {
		log, recs, err := e.load("bench")
		if err != nil {
			b.Fatal(err)
		}
		var u, a Record
		var all []Record
		if whole {
			u, a = benchWholeTurn(b, c, log, recs)
			all = append(recs[:len(recs):len(recs)], u, a) // the old load capped them
			e.remember(log, all)
		} else {
			var conv *conversation
			u, a, conv = benchTurn(b, e, c, log, recs)
			all = append(recs, u, a)
			e.rememberTurn(log, all, conv)
		}
		b.StopTimer()
		// Back to the turn, as the file, the remembered records (in
		// the array the turn grew, as the next turn would find it) and
		// their encoded messages.
		log.next -= 2
		log.size -= int64(recLen(b, u) + recLen(b, a))
		truncate(b, log.Path, log.size)
		rewind(conv, len(recs))
		e.rememberTurn(log, all[:len(recs)], conv)
		b.StartTimer()
	}
}

// rewind takes a conversation back to its first n records.
func rewind(c *conversation, n int) {
	c.recs = n
	c.ends = c.ends[:n]
	c.buf = c.buf[:c.ends[n-1]]
}

// BenchmarkTurnOverheadAt100Reread is the same turn when the records are
// not remembered (loopd restarted, or the session was not among the last
// 64): the whole log is read and checked, and its messages encoded.
func BenchmarkTurnOverheadAt100Reread(b *testing.B) {
	dir := benchSession(b, 99)
	e := &Engine{SessionsDir: dir}
	c := &Client{Model: "m"}
	b.ResetTimer()
	defer testsupport.ReportCPU(b, testsupport.CPUTime())
	for b.Loop() {
		log, recs, err := OpenLog(dir, "bench")
		if err != nil {
			b.Fatal(err)
		}
		u, a, _ := benchTurn(b, e, c, log, recs)
		b.StopTimer()
		truncate(b, log.Path, log.Size()-int64(recLen(b, u)+recLen(b, a)))
		b.StartTimer()
	}
}

// benchTurn is a turn's own work after its records are found, as
// Engine.Turn does it: the request encoded from the kept messages and
// the user's, and the user and assistant records appended and their
// messages encoded.
func benchTurn(b *testing.B, e *Engine, c *Client, log *Log, recs []Record) (u, a Record, conv *conversation) {
	conv, err := e.conversation(log, recs)
	if err != nil {
		b.Fatal(err)
	}
	u = Record{Time: t0, Type: TypeUser, Who: "owner", Text: "And the next one?"}
	msgs, err := conv.messages(len(recs), u)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := encodeBody(c.chatBody(ChatRequest{encoded: &msgs, Tools: conv.tools, MaxTokens: DefaultMaxTokens})); err != nil {
		b.Fatal(err)
	}
	a = Record{Time: t0, Type: TypeAssistant, Text: "It is the same.", Timings: Timings{PromptN: 20, CacheN: 14000}}
	if err := log.Append(&u, &a); err != nil {
		b.Fatal(err)
	}
	if err := conv.add(u, a); err != nil {
		b.Fatal(err)
	}
	return u, a, conv
}

// benchWholeTurn is benchTurn as loopd did it before: every record's
// message rebuilt and the whole request encoded.
func benchWholeTurn(b *testing.B, c *Client, log *Log, recs []Record) (u, a Record) {
	u = Record{Time: t0, Type: TypeUser, Who: "owner", Text: "And the next one?"}
	msgs, tools := Messages(append(recs, u))
	if _, err := encodeBody(c.chatBody(ChatRequest{Messages: msgs, Tools: tools, MaxTokens: DefaultMaxTokens})); err != nil {
		b.Fatal(err)
	}
	a = Record{Time: t0, Type: TypeAssistant, Text: "It is the same.", Timings: Timings{PromptN: 20, CacheN: 14000}}
	if err := log.Append(&u, &a); err != nil {
		b.Fatal(err)
	}
	return u, a
}

func recLen(b *testing.B, r Record) int {
	line, err := r.Encode()
	if err != nil {
		b.Fatal(err)
	}
	return len(line)
}

func truncate(b *testing.B, path string, size int64) {
	if err := os.Truncate(path, size); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRebuild10000 reads, checks and replays a session of 10,000
// records (2,500 turns, about 2.6 MB).
func BenchmarkRebuild10000(b *testing.B) {
	dir := benchSession(b, 2500)
	b.ResetTimer()
	defer testsupport.ReportCPU(b, testsupport.CPUTime())
	for b.Loop() {
		_, recs, err := OpenLog(dir, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if len(recs) != 10001 {
			b.Fatalf("%d records", len(recs))
		}
		Messages(recs)
	}
}

// timedHandler adds the time each request spends in h to total: the
// model's time, which the Engine benchmarks subtract.
func timedHandler(h http.Handler, total *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := time.Now()
		h.ServeHTTP(w, r)
		total.Add(int64(time.Since(t)))
	})
}

// engineAt100 is an Engine whose session "bench" is at turn 100, with the
// stand-in behind inferproxy answering its turns, and the stand-in's
// handler time summed in model.
func engineAt100(b *testing.B) (e *Engine, model *atomic.Int64) {
	dir := benchSession(b, 99)
	model = &atomic.Int64{}
	srv := llamastandin.New(llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{
		{When: "And the next one?", Content: "It is the same."}}}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: timedHandler(srv.Handler(), model)}
	go hs.Serve(ln)
	b.Cleanup(func() { srv.Close(); hs.Close() })
	sock := daemontest.InferProxy(b, inferproxy.Options{Listen: filepath.Join(testsupport.ShortDir(b), "infer.sock"), Upstream: "http://" + ln.Addr().String()})
	e = &Engine{SessionsDir: dir, Client: &Client{Socket: sock, Model: srv.Model(), Timeout: time.Minute}}
	return e, model
}

// benchEngineTurn runs a real Engine.Turn at turn 100 of a session: the
// log found (kept or reread), the messages rebuilt, the request sent
// through inferproxy to the stand-in and its stream read, the records
// appended and fsync'd. After each turn the log is cut back to turn 100.
// own-ms/op is the turn's wall time less the stand-in's handler time
// (rendering and tokenizing the prompt, the reply): loopd's own time and
// inferproxy's. cpu-ms/op is the CPU of the whole process, the stand-in's
// and inferproxy's included, so it is an upper bound of loopd's.
func benchEngineTurn(b *testing.B, reread, keepAlive bool) {
	e, model := engineAt100(b)
	if !keepAlive {
		// A connection per request, as loopd sent them before keep-alive
		// was turned back on.
		sock := e.Client.Socket
		e.Client.once.Do(func() {
			e.Client.http = &http.Client{Transport: &http.Transport{
				DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
					var d net.Dialer
					return d.DialContext(ctx, "unix", sock)
				},
				DisableKeepAlives: true,
			}}
		})
	}
	log, recs, err := e.load("bench")
	if err != nil {
		b.Fatal(err)
	}
	size, next := log.Size(), log.Next()
	back := func() {
		truncate(b, log.Path, size)
		log.size, log.next = size, next
		e.mu.Lock()
		e.recent = nil
		e.mu.Unlock()
		if !reread {
			e.remember(log, recs)
		}
	}
	turn := func() {
		_, err := e.Turn(context.Background(), loopwire.TurnRequest{Session: "bench", Text: "And the next one?"}, func(loopwire.Event) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	turn() // the stand-in's slot now holds this prompt: later turns reuse it
	back()
	model.Store(0)
	b.ResetTimer()
	start, wall := testsupport.CPUTime(), time.Now()
	for b.Loop() {
		turn()
		b.StopTimer()
		t := time.Now()
		back()
		wall = wall.Add(time.Since(t)) // not the turn's
		b.StartTimer()
	}
	testsupport.ReportCPU(b, start)
	n := float64(b.N)
	b.ReportMetric(float64(model.Load())/1e6/n, "model-ms/op")
	b.ReportMetric((float64(time.Since(wall))-float64(model.Load()))/1e6/n, "own-ms/op")
}

// BenchmarkEngineTurnAt100 is a turn whose session's records were kept
// from its last turn.
func BenchmarkEngineTurnAt100(b *testing.B) { benchEngineTurn(b, false, true) }

// BenchmarkEngineTurnAt100NoKeepAlive is the same turn with a connection
// to inferproxy per request: what keep-alive saves a turn.
func BenchmarkEngineTurnAt100NoKeepAlive(b *testing.B) { benchEngineTurn(b, false, false) }

// BenchmarkEngineTurnAt100Reread is a turn after a restart: the session's
// log is read and checked whole.
func BenchmarkEngineTurnAt100Reread(b *testing.B) { benchEngineTurn(b, true, true) }

// benchRequest sends small requests (POST /tokenize of two bytes) through
// inferproxy to the stand-in, on kept-alive connections or on one
// connection each: the cost of a connection per request, which a turn
// pays for each of its model requests.
func benchRequest(b *testing.B, keepAlive bool) {
	_, c := startModel(b, testsupport.ShortDir(b), llamastandin.Options{})
	if !keepAlive {
		sock := c.Socket
		c.once.Do(func() {
			c.http = &http.Client{Transport: &http.Transport{
				DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
					var d net.Dialer
					return d.DialContext(ctx, "unix", sock)
				},
				DisableKeepAlives: true,
			}}
		})
	}
	ctx := context.Background()
	start := testsupport.CPUTime()
	for b.Loop() {
		if _, err := c.Tokenize(ctx, "hi"); err != nil {
			b.Fatal(err)
		}
	}
	testsupport.ReportCPU(b, start)
}

// BenchmarkRequestKeepAlive is a small model request on a kept-alive
// connection to inferproxy (and inferproxy's, kept alive, upstream).
func BenchmarkRequestKeepAlive(b *testing.B) { benchRequest(b, true) }

// BenchmarkRequestNoKeepAlive is the same with a new connection to
// inferproxy for each request, as loopd sent them before.
func BenchmarkRequestNoKeepAlive(b *testing.B) { benchRequest(b, false) }

// BenchmarkFork10000 is resume's fork of a session of 10,000 records
// (2.6 MB) at its end: the boundary's bytes read and hashed, the prefix
// parsed and checked, brokerd told of the new session (a peer that
// answers at once), the new log written and fsynced with its note. The
// anchors in the same run: BenchmarkRebuild10000 (reading and checking
// the same log), and a bare copy of its bytes with an fsync.
func BenchmarkFork10000(b *testing.B) {
	dir := benchSession(b, 2500)
	broker := daemontest.Peer(b, dir, "broker", map[string]daemon.Handler{
		"session.start": func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
			return map[string]any{"taint": "public"}, nil
		},
	})
	e := &Engine{SessionsDir: dir, Broker: Broker{Socket: broker, Silent: 5 * time.Second}}
	data, err := os.ReadFile(LogPath(dir, "bench", 0))
	if err != nil {
		b.Fatal(err)
	}
	at := SessionAtOf("bench", 0, data)
	b.Run("fork", func(b *testing.B) {
		b.ReportMetric(float64(len(data)), "log-bytes")
		defer testsupport.ReportCPU(b, testsupport.CPUTime())
		for b.Loop() {
			res, err := e.Fork(context.Background(), loopwire.ForkRequest{From: at, Host: true, Run: "r-1", Agent: "A1", Definition: "d", SpawnHash: "sha256:0"})
			if err != nil || res.Problem != nil {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
	b.Run("copy+fsync", func(b *testing.B) {
		defer testsupport.ReportCPU(b, testsupport.CPUTime())
		for i := 0; b.Loop(); i++ {
			in, err := os.ReadFile(LogPath(dir, "bench", 0))
			if err != nil {
				b.Fatal(err)
			}
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("copy-%d", i)))
			if err != nil {
				b.Fatal(err)
			}
			f.Write(in)
			f.Sync()
			f.Close()
		}
	})
}
