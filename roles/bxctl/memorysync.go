package bxctl

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/daemon"
	"boxmaker/core/memorywire"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// memorySyncCommand is bxctl memory sync: the Honcho outbox's state, and
// with --now a drain that exits 0 only when nothing waits.
func memorySyncCommand() *cli.Command {
	return &cli.Command{
		Name:  "sync",
		Usage: "show what waits to be synced to Honcho; --now sends it",
		Description: "memoryd keeps the messages for Honcho in an outbox on disk\n" +
			"(memory/outbox/) and sends them in order, trying again with a growing wait\n" +
			"while Honcho fails. This shows how many wait, how many were sent, how many\n" +
			"Honcho refused for good (kept in memory/outbox/failed.jsonl), how many were\n" +
			"withheld for their class ([honcho] max_class), and the last error.\n" +
			"\n" +
			"With --now memoryd reads the session logs and memory at once and sends\n" +
			"everything without waiting; bxctl exits 0 only when nothing is left\n" +
			"waiting, else 1 with the reason (the runbook's honcho-unreachable).\n" +
			"Without [honcho] in memoryd.toml nothing is synced, and bxctl says so.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "now", Usage: "feed and drain the outbox now; exit 0 only when it is empty"},
			rolecli.JSONFlag,
		},
		Action: rolecli.NoArgs(memorySync),
	}
}

func memorySync(c *cli.Context) error {
	var ans memorywire.SyncAnswer
	// A drain sends every waiting batch; each request has its own
	// [honcho] timeout_ms inside memoryd.
	timeout := 30 * time.Second
	if c.Bool("now") {
		timeout = 0
	}
	if err := memorydCall(c, memorywire.KindSync, memorywire.SyncRequest{Now: c.Bool("now")}, &ans, timeout, nil); err != nil {
		return err
	}
	if rolecli.WantsJSON(c) {
		if err := rolecli.WriteJSON(c.App.Writer, ans); err != nil {
			return err
		}
	} else {
		writeSync(c.App.Writer, ans)
	}
	switch {
	case !ans.Configured && c.Bool("now"):
		return errors.New("memory sync: memoryd.toml has no [honcho]: nothing is synced")
	case ans.Configured && c.Bool("now") && (ans.Waiting > 0 || ans.Error != ""):
		// The refusal memoryd sent, made again from its entry and public
		// text: one link at the end, the cause's own entry when it names
		// one (a key that cannot be read is secret-unavailable), else
		// honcho-unreachable.
		why := &daemon.RemoteError{Text: ans.Error, Entry: ans.ErrorEntry, Public: ans.ErrorText}
		if ans.Error == "" {
			why = &daemon.RemoteError{Text: ans.LastError, Entry: ans.LastErrorEntry, Public: ans.LastErrorText}
		}
		e, ok := runbook.EntryOf(why)
		if ok && e == runbook.HonchoOutboxDamaged {
			return runbook.Refuse(e, "memory sync: honcho: %s", termsafe.Line(strings.TrimPrefix(why.PublicText(), "honcho: ")))
		}
		if !ok {
			e = runbook.HonchoUnreachable
		}
		return runbook.Refuse(e, "memory sync: not done, %d message(s) wait: %s", ans.Waiting, termsafe.Line(why.PublicText()))
	}
	return nil
}

func writeSync(w io.Writer, a memorywire.SyncAnswer) {
	if !a.Configured {
		fmt.Fprintln(w, "honcho: off (memoryd.toml has no [honcho]): nothing is synced")
		return
	}
	if a.Error != "" && a.Waiting == 0 && a.Sent == 0 {
		fmt.Fprintf(w, "honcho: %s\n", termsafe.Line(strings.TrimPrefix(a.Error, "honcho: ")))
		return
	}
	fmt.Fprintf(w, "honcho: %d waiting, %d sent, %d failed, %d withheld\n", a.Waiting, a.Sent, a.Failed, a.Withheld)
	if a.LastSentAt != "" {
		fmt.Fprintf(w, "last sent: %s\n", a.LastSentAt)
	}
	if a.LastError != "" {
		fmt.Fprintf(w, "last error: %s %s\n", a.LastErrorAt, termsafe.Line(a.LastError))
	}
	if a.NextAttempt != "" {
		fmt.Fprintf(w, "next attempt: %s\n", a.NextAttempt)
	}
	if a.Failed > 0 {
		fmt.Fprintln(w, "refused for good: see memory/outbox/failed.jsonl")
	}
}
