package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Frame is one text frame the Mattermost WebSocket sends: an event (Event
// set, Seq its place in the connection's sequence) or the answer to one of
// gatewayd's requests (Status set, SeqReply the request's seq).
type Frame struct {
	Event     string                     `json:"event,omitempty"`
	Data      map[string]json.RawMessage `json:"data,omitempty"`
	Broadcast *Broadcast                 `json:"broadcast,omitempty"`
	Seq       int64                      `json:"seq"`
	Status    string                     `json:"status,omitempty"`
	SeqReply  int64                      `json:"seq_reply,omitempty"`
	Error     *AppError                  `json:"error,omitempty"`
}

// Broadcast says who an event was sent to (model.WebsocketBroadcast).
type Broadcast struct {
	UserID    string `json:"user_id"`
	ChannelID string `json:"channel_id"`
	TeamID    string `json:"team_id"`
}

// IsEvent tells an event from a response.
func (f Frame) IsEvent() bool { return f.Event != "" }

// maxFrame bounds one frame gatewayd reads: a post of 16383 runes, each
// escaped twice (the post is a JSON string inside the event), fits.
const maxFrame = 1 << 20

// DecodeFrame reads one frame. A frame must be a JSON object that is
// either an event (a non-empty "event") or a response (a "status"), not
// both, and not larger than maxFrame.
func DecodeFrame(data []byte) (Frame, error) {
	var f Frame
	if len(data) > maxFrame {
		return f, fmt.Errorf("a frame of %d bytes is larger than %d", len(data), maxFrame)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return f, errors.New("a frame is not a JSON object")
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return Frame{}, fmt.Errorf("a frame is not JSON Mattermost sends: %v", err)
	}
	switch {
	case f.Event != "" && f.Status != "":
		return Frame{}, errors.New("a frame is both an event and a response")
	case f.Event == "" && f.Status == "":
		return Frame{}, errors.New("a frame is neither an event nor a response")
	case f.Seq < 0:
		return Frame{}, fmt.Errorf("an event has seq %d", f.Seq)
	}
	return f, nil
}

// String is a data field that is a JSON string ("" when absent or not a
// string).
func (f Frame) String(key string) string {
	var s string
	if raw, ok := f.Data[key]; ok {
		json.Unmarshal(raw, &s)
	}
	return s
}

// Posted is what a posted (or post_edited) event says.
type Posted struct {
	Post        Post
	ChannelType string // O, P, D or G
	SenderName  string // "@alice"
	Mentions    []string
}

// PostedEvent reads a posted or post_edited event's data: its post is a
// JSON string holding the post (double-encoded, as the server sends it),
// and so are mentions.
func PostedEvent(f Frame) (Posted, error) {
	var p Posted
	raw := f.String("post")
	if raw == "" {
		return p, errors.New("the event has no post")
	}
	if err := json.Unmarshal([]byte(raw), &p.Post); err != nil {
		return p, fmt.Errorf("the event's post is not a post: %v", err)
	}
	if p.Post.ID == "" || p.Post.ChannelID == "" {
		return p, errors.New("the event's post has no id or no channel")
	}
	p.ChannelType = f.String("channel_type")
	p.SenderName = f.String("sender_name")
	if m := f.String("mentions"); m != "" {
		json.Unmarshal([]byte(m), &p.Mentions)
	}
	return p, nil
}

// Action is a request gatewayd sends on the WebSocket
// (model.WebSocketRequest).
type Action struct {
	Seq    int64          `json:"seq"`
	Action string         `json:"action"`
	Data   map[string]any `json:"data,omitempty"`
}
