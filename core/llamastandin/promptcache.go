package llamastandin

// llama-server's prompt cache in host memory (--cache-ram, 8192 MiB by
// default; tools/server/server-task.cpp, server_prompt_cache): when a
// request displaces the prompt a slot holds (choose), that prompt is
// saved, and the saved prompt that fits the request best is put back in
// the slot. So a conversation that another one pushed out of its slot
// takes its prompt from the cache again at its next request, and
// timings.cache_n counts it. Measured on build 9928 with one slot
// (docs/inference-contract.md).

// promptCacheTokens is how many tokens the stand-in's prompt cache
// holds, per token of the slots' context, before the oldest prompt goes.
// The real server's bound is memory (8 GiB by default), at least n_ctx
// tokens: for a small model's state that is many contexts.
const promptCacheTokens = 4

// swapPrompt saves the prompt sl holds and gives sl the saved prompt
// that fits ids better than its own, as server_prompt_cache's alloc and
// load do: a prompt another saved one holds whole is not saved again,
// and saved ones it holds whole go; a saved prompt is taken when it
// keeps a larger share of itself and covers a larger share of ids than
// what the slot holds, and never when it would keep under a quarter of
// itself. The prompt taken leaves the cache.
func (s *Server) swapPrompt(sl *slot, ids []int) {
	if len(sl.cache) > 0 {
		held := false
		for _, p := range s.saved {
			if commonPrefix(p, sl.cache) == len(sl.cache) {
				held = true
				break
			}
		}
		if !held {
			kept := s.saved[:0]
			for _, p := range s.saved {
				if commonPrefix(p, sl.cache) != len(p) {
					kept = append(kept, p)
				}
			}
			s.saved = append(kept, sl.cache)
		}
	}
	share := func(n, of int) float64 { return float64(n) / float64(max(of, 1)) }
	n := commonPrefix(sl.cache, ids)
	keep, cover := -1.0, share(n, len(ids)) // an empty slot takes any saved prompt
	if len(sl.cache) > 0 {
		keep = share(n, len(sl.cache))
	}
	best := -1
	for i, p := range s.saved {
		m := commonPrefix(p, ids)
		if k, c := share(m, len(p)), share(m, len(ids)); k >= 0.25 && keep < k && cover < c {
			keep, cover, best = k, c, i
		}
	}
	if best >= 0 {
		sl.cache = s.saved[best]
		s.saved = append(s.saved[:best:best], s.saved[best+1:]...)
	}
	limit, total := promptCacheTokens*s.opts.NCtx*len(s.slots), 0
	for _, p := range s.saved {
		total += len(p)
	}
	for len(s.saved) > 0 && total > limit {
		total -= len(s.saved[0])
		s.saved = s.saved[1:]
	}
}
