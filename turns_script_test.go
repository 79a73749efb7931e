package main

import (
	"fmt"
	"os"

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
	n, previous := 0, 0
	for _, r := range records {
		if r.Type != "assistant" {
			continue
		}
		n++
		prompt := r.Timings.CacheN + r.Timings.PromptN
		fmt.Fprintf(ts.Stdout(), "request %d: prompt %d tokens, %d from the cache, %d evaluated\n", n, prompt, r.Timings.CacheN, r.Timings.PromptN)
		if n > 1 && r.Timings.CacheN < previous {
			ts.Fatalf("request %d took %d tokens from the cache, less than the previous request's prompt of %d: the prompt prefix changed", n, r.Timings.CacheN, previous)
		}
		previous = prompt
	}
	if n < 2 {
		ts.Fatalf("cachecheck: %d model requests in %s; need at least 2", n, path)
	}
}
