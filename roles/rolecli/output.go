package rolecli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"boxmaker/core/termsafe"
)

// StatusError ends a command with a status other than 0, 1 or 2 that
// carries meaning (bxctl grants test: 3 for ask, 4 for deny). Its output
// is already written; main prints nothing more for it.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// JSONFlag is the --json flag: one JSON document on standard output
// instead of the text; errors still go to standard error.
var JSONFlag = &cli.BoolFlag{Name: "json", Usage: "print one JSON document instead of the text (docs/json.md); errors still go to standard error"}

// WantsJSON reports whether c's command was given JSONFlag.
func WantsJSON(c *cli.Context) bool { return c.Bool(JSONFlag.Name) }

// WriteJSON writes v as one indented JSON document and a newline. Strings
// from outside stay as they are, but nothing in it can act on a terminal.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(b), '\n'))
	return err
}
