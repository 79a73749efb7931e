package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/core/loop"
)

// cachecheck LOG: reads a session log and requires that every model
// request after the first reused the whole of the request before it: its
// cache_n (the tokens the server took from its prompt cache) is at least
// the previous request's prompt (cache_n + prompt_n). It prints one line
// per assistant record.
func cmdCachecheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cachecheck LOG")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	if err != nil {
		ts.Fatalf("cachecheck: %v", err)
	}
	records, err := loop.ParseLog(path, data)
	if err != nil {
		ts.Fatalf("cachecheck: %v", err)
	}
	// A tool round replays the previous request and its reply exactly, so
	// it takes the whole previous prompt from the cache. A new user turn
	// may take less: the Qwen3.5 template renders the turns before a new
	// user message without their think blocks (docs/inference-contract.md),
	// and loopd judges that against the template; a loss it finds is a
	// "cache loss" note, which must not be there.
	n, previous, before := 0, 0, ""
	for _, r := range records {
		if r.Type == "note" && strings.HasPrefix(r.Text, "cache loss") {
			ts.Fatalf("cachecheck: loopd noted a cache loss: %s", r.Text)
		}
		if r.Type != "assistant" {
			if r.Type != "note" {
				before = r.Type
			}
			continue
		}
		n++
		prompt := r.Timings.CacheN + r.Timings.PromptN
		fmt.Fprintf(ts.Stdout(), "request %d: prompt %d tokens, %d from the cache, %d evaluated (after a %s record)\n", n, prompt, r.Timings.CacheN, r.Timings.PromptN, before)
		if n > 1 && before == "tool" && r.Timings.CacheN < previous {
			ts.Fatalf("request %d, a tool round, took %d tokens from the cache, less than the previous request's prompt of %d: the prompt prefix changed", n, r.Timings.CacheN, previous)
		}
		if n > 1 && r.Timings.CacheN == 0 {
			ts.Fatalf("request %d took nothing from the cache", n)
		}
		previous = prompt
	}
	if n < 2 {
		ts.Fatalf("cachecheck: %d model requests in %s; need at least 2", n, path)
	}
}
