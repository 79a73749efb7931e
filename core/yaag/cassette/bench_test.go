package cassette

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkJournalStep is the cost of journaling one Ask: its line encoded,
// written and fsynced. The anchor writes the same bytes to a file and
// fsyncs it, without the encoding: the difference is the journal's own.
func BenchmarkJournalStep(b *testing.B) {
	step := askStep(1, "a result of some length: "+string(bytes.Repeat([]byte("words "), 40)))
	step.Fields = map[string]string{"prompt": h1, "outputSchema": h2, "wrapUpPrompt": h1}
	b.Run("journal", func(b *testing.B) {
		j, err := CreateJournal(filepath.Join(b.TempDir(), "run.json"), runInfo())
		if err != nil {
			b.Fatal(err)
		}
		defer j.Close()
		j.Spawned(agentA1())
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s := step
			s.N = i + 1
			if _, err := j.Step(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write+fsync", func(b *testing.B) {
		line, _ := json.Marshal(line{Step: step})
		f, err := os.Create(filepath.Join(b.TempDir(), "raw"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := f.Write(append(line, '\n')); err != nil {
				b.Fatal(err)
			}
			if err := f.Sync(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
