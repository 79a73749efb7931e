package loop

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
)

// conversation is a session's messages encoded for a chat request, kept
// from turn to turn with the session's records: a turn encodes the
// messages of the records it appends, never the whole session again, so
// its own cost does not grow with the session (docs/performance.md).
//
// The bytes are those Messages and encoding/json give for the same
// records: each message is encoded alone, as json.Marshal encodes it as
// an element of the array, and the elements are joined by commas
// (TestEncodedMatchesMarshal compares them for many sessions).
//
// buf only grows: a request reads buf[:n] of the length it had when it
// was made (net/http may read a body after the exchange returns), and
// later appends write past it.
type conversation struct {
	log   *Log   // the log whose records these are
	recs  int    // how many records are encoded
	buf   []byte // the messages, each followed by a comma
	ends  []int  // len(buf) after each record
	tools json.RawMessage
	used  map[string]bool // the tool call ids of the records (callID)
}

// newConversation encodes a session's records.
func newConversation(log *Log, recs []Record) (*conversation, error) {
	c := &conversation{log: log, used: map[string]bool{}}
	if err := c.add(recs...); err != nil {
		return nil, err
	}
	return c, nil
}

// add encodes the messages of records that follow those already encoded.
func (c *conversation) add(recs ...Record) error {
	for _, r := range recs {
		msgs, tools := Messages([]Record{r})
		if r.Type == TypeBaseline {
			c.tools = tools
		}
		for _, m := range msgs {
			line, err := json.Marshal(m)
			if err != nil {
				return err
			}
			c.buf = append(append(c.buf, line...), ',')
		}
		for _, tc := range r.ToolCalls {
			c.used[tc.ID] = true
		}
		c.ends = append(c.ends, len(c.buf))
		c.recs++
	}
	return nil
}

// messages is the messages array of the first n records, and of pending
// records after them (not kept: a turn's user record goes with its
// reply), as the parts of its encoding.
func (c *conversation) messages(n int, pending ...Record) (encodedMessages, error) {
	end := 0
	if n > 0 {
		end = c.ends[n-1]
	}
	parts := [][]byte{c.buf[:end:end]}
	if len(pending) > 0 {
		p := &conversation{used: map[string]bool{}}
		if err := p.add(pending...); err != nil {
			return encodedMessages{}, err
		}
		parts = append(parts, p.buf)
	}
	return encodedMessages{parts: parts}, nil
}

// encodedMessages is a messages array's elements, encoded, each followed
// by a comma.
type encodedMessages struct {
	parts [][]byte
}

// array is the parts of the JSON array: the brackets around the
// elements, without the last comma.
func (m encodedMessages) array() [][]byte {
	out := make([][]byte, 0, len(m.parts)+2)
	out = append(out, []byte("["))
	for i := len(m.parts) - 1; i >= 0; i-- {
		if len(m.parts[i]) > 0 {
			last := m.parts[i]
			out = append(out, m.parts[:i]...)
			out = append(out, last[:len(last)-1])
			break
		}
	}
	return append(out, []byte("]"))
}

// encodeBody is a request body's bytes, as parts: json.Marshal's, or
// splice's for a body with encoded messages.
func encodeBody(body any) ([][]byte, error) {
	if sb, ok := body.(splicedBody); ok {
		return splice(sb.body, sb.msgs)
	}
	raw, err := json.Marshal(body)
	return [][]byte{raw}, err
}

// splice encodes body, whose "messages" is left out, with the encoded
// messages in its place: the bytes json.Marshal gives for body with the
// messages, as parts, the messages' own not copied.
func splice(body map[string]any, msgs encodedMessages) ([][]byte, error) {
	body["messages"] = json.RawMessage("null")
	raw, err := json.Marshal(body)
	delete(body, "messages")
	if err != nil {
		return nil, err
	}
	// The keys are sorted and every value before "messages" is loopd's
	// own (a bool, an int, a map of bools): the first match is the key.
	key := []byte(`"messages":null`)
	i := bytes.Index(raw, key)
	if i < 0 {
		return nil, errors.New("the request has no messages")
	}
	at := i + len(key) - len("null")
	parts := [][]byte{raw[:at]}
	parts = append(parts, msgs.array()...)
	return append(parts, raw[at+len("null"):]), nil
}

// partsBody is a request body read from parts, with its length known and
// a fresh copy for a request sent again.
func partsBody(req *http.Request, parts [][]byte) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	open := func() (io.ReadCloser, error) {
		b := make(net.Buffers, len(parts))
		copy(b, parts) // Read consumes the slice, not the bytes
		return io.NopCloser(&b), nil
	}
	req.ContentLength = int64(n)
	req.Body, _ = open()
	req.GetBody = open
}
