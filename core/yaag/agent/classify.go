package agent

import (
	"fmt"
	"strings"

	"boxmaker/core/loopwire"
	"boxmaker/runbook"
)

// Class is what a model failure means for the model list.
type Class string

// The classes. Only Auth moves an Agent to the next model of its list: the
// model is out of reach for this Agent, and another may not be. A
// transient failure is the server's state (loading, busy, gone for a
// moment) and would fail the next model the same way; a fatal one is the
// request's own fault.
const (
	Auth      Class = "auth"
	Transient Class = "transient"
	Fatal     Class = "fatal"
)

// textNoAPIKey is in the message of every auth failure of a server that
// refused the key, as the troubleshooting page says.
const textNoAPIKey runbook.Quoted = "No API key"

// Classify reads what llama-server (or inferproxy in front of it)
// answered instead of a completion.
//
//   - 401 and 403: the server was started with --api-key and refused the
//     request's key (llama-server answers 401 "Invalid API Key",
//     authentication_error), or inferproxy holds no key for it: auth.
//   - 404 naming a model, or 400 "model 'x' not found" (llama-server's
//     router mode; a single llama-server ignores the model's name): the
//     server does not serve that model; for this Agent it is out of reach
//     in the same way: auth.
//   - no answer at all, 408, 429, 500, 502, 503 (loading), 504: transient.
//   - anything else (400: the request itself): fatal.
func Classify(e *loopwire.ModelError) Class {
	switch {
	case e.Status == 401 || e.Status == 403:
		return Auth
	case e.Status == 404 && strings.Contains(strings.ToLower(e.Message), "model"):
		return Auth
	case e.Status == 400 && strings.HasPrefix(e.Message, "model '") && strings.HasSuffix(e.Message, "' not found"):
		return Auth
	case e.Status == 0, e.Status == 408, e.Status == 429, e.Status >= 500:
		return Transient
	}
	return Fatal
}

// Failure is one model's failure, classified.
type Failure struct {
	Model string
	Class Class
	Err   *loopwire.ModelError
}

func (f Failure) Error() string {
	model := f.Model
	if model == "" {
		model = "loopd's model"
	}
	status := "no answer"
	if f.Err.Status != 0 {
		status = fmt.Sprintf("HTTP %d", f.Err.Status)
	}
	switch {
	case f.Class == Auth && (f.Err.Status == 404 || f.Err.Status == 400):
		return fmt.Sprintf("%s (auth): the model server does not serve it (%s: %s)", model, status, f.Err.Message)
	case f.Class == Auth:
		return fmt.Sprintf("%s (auth): %s for this model was accepted by the model server (%s: %s); give inferproxy the server's key (upstream_key_secret in inferproxy.toml)",
			model, textNoAPIKey, status, f.Err.Message)
	default:
		return fmt.Sprintf("%s (%s): %s: %s", model, f.Class, status, f.Err.Message)
	}
}
