package sanitize_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"boxmaker/sanitize"
)

// TestFlagEngineIsTheReference holds the flag scan's engine to what its
// rules say: on every case of every corpus (developed, held out, the third, fourth and
// fifth collections), on Go source file by file and on each language's prose, the
// engine's shortcuts must find the same rules at the same offsets as the
// plain reading of the rules (matchReference). It runs on whatever rules
// exist, so a rule added later is held too.
func TestFlagEngineIsTheReference(t *testing.T) {
	var texts []string
	var names []string
	for _, name := range []string{sanitize.AttackCorpus, sanitize.CodeWorkCorpus, "heldout/attack.txt", "heldout/codework.txt",
		"heldout3/en.txt", "heldout3/tr.txt", "heldout3/game.txt", "heldout3/indirect.txt", "heldout3/benign.txt",
		"heldout4/game.txt", "heldout4/benign.txt", "heldout5/game.txt", "heldout5/benign.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		cases, problems := sanitize.ParseCorpus(name, string(data), false)
		if len(problems) > 0 || len(cases) == 0 {
			t.Fatalf("%s: %d cases, problems %v", name, len(cases), problems)
		}
		for _, c := range cases {
			texts = append(texts, c.Text)
			names = append(names, name+": "+c.Name)
		}
	}
	limit := 2 << 20
	if testing.Short() {
		limit = 256 << 10
	}
	read := 0
	var joined strings.Builder
	for _, p := range treeFiles(filepath.Join(runtime.GOROOT(), "src"), ".go") {
		if read >= limit {
			break
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		read += len(data)
		texts = append(texts, string(data))
		names = append(names, p)
		joined.Write(data)
	}
	// The files joined: one long text, as the command's chunks are.
	texts = append(texts, joined.String())
	names = append(names, "the Go source joined")
	for _, src := range proseSources {
		paras, _ := proseParagraphs(src.man, src.mo, limit/8)
		for i, p := range paras {
			texts = append(texts, p)
			names = append(names, fmt.Sprintf("%s prose paragraph %d", src.lang, i))
		}
	}
	differ := 0
	for i, text := range texts {
		if d := sanitize.EngineDiffers(text); d != "" {
			differ++
			if differ <= 20 {
				t.Errorf("%s: %s", names[i], d)
			}
		}
	}
	if differ > 0 {
		t.Errorf("the engine and the reference differ on %d of %d texts", differ, len(texts))
	}
	t.Logf("%d texts, %d bytes of Go source", len(texts), read)
}
