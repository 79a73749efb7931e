package runs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"boxmaker/core/clock"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/engine"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const textCheckpointDiffers runbook.Quoted = "Checkpoint path of run_end differs from the Run record. Refused."

// Request sends one request to the Control Channel of Run id: a Run with
// no record is "No Run with id", one whose record says it ended is
// "already ended." (neither reaches a socket); a refusal of the socket,
// or a socket that cannot be reached, is a *control.Error.
func Request(ctx context.Context, s Store, id, kind string, body, out any) (Record, error) {
	return s.Request(ctx, id, kind, body, out)
}

// Follow writes the events of Run id as they come, to its end, and
// returns the end. A Run that was resumed is refused ("was already
// resumed by"), unless successor, which follows it to the last Run that
// continued it. A run_end naming another Checkpoint than the record
// says is refused.
func Follow(ctx context.Context, s Store, id string, successor bool, w io.Writer) (End, error) {
	r, err := s.Read(id)
	if err != nil {
		return End{}, err
	}
	for r.ResumedBy != "" {
		if !successor {
			return End{}, cassette.ResumedByError("Run "+id, r.ResumedBy)
		}
		if r, err = s.Read(r.ResumedBy); err != nil {
			return End{}, err
		}
		line, _ := json.Marshal(engine.Event{Event: engine.EventSuccessor, Run: r.ID})
		w.Write(append(line, '\n'))
	}
	f, err := os.Open(r.Events)
	if err != nil {
		return End{}, fmt.Errorf("cannot read the events of Run %s: %v", r.ID, err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var partial []byte
	for {
		line, err := br.ReadBytes('\n')
		partial = append(partial, line...)
		if err == nil {
			var e struct {
				Event string `json:"event"`
			}
			json.Unmarshal(partial, &e)
			if e.Event == engine.EventRunEnd {
				var end End
				if err := json.Unmarshal(partial, &end); err != nil {
					return End{}, fmt.Errorf("the run_end of Run %s is not readable: %v", r.ID, err)
				}
				now, err := s.Read(r.ID)
				if err != nil {
					return end, err
				}
				if now.Checkpoint != end.Checkpoint {
					return end, runbook.Refuse(runbook.YaagReattachRefused, "Run %s: %s (run_end names %q, the record %q)", r.ID, textCheckpointDiffers, end.Checkpoint, now.Checkpoint)
				}
				w.Write(partial)
				return end, nil
			}
			w.Write(partial)
			partial = nil
			continue
		}
		if !errors.Is(err, io.EOF) {
			return End{}, err
		}
		if !s.Alive(r.ID) {
			// One more read: the end may have been written as it exited.
			if rest, _ := io.ReadAll(br); len(rest) > 0 {
				br = bufio.NewReader(io.MultiReader(bytes.NewReader(append(partial, rest...))))
				partial = nil
				continue
			}
			return End{}, fmt.Errorf("Run %s's process is gone without its end (it is lost); continue it with yaag run <program> --resume %s", r.ID, r.Cassette)
		}
		if err := clock.Sleep(ctx, 100*time.Millisecond); err != nil {
			return End{}, err
		}
	}
}
