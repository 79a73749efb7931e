package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mattermost/mattermost/server/public/model"

	"boxmaker/core/testpeer/fakemattermost"
)

// capture keeps every REST answer's body, by route.
type capture struct {
	mu     sync.Mutex
	bodies []sentBody
	next   http.RoundTripper
}

type sentBody struct {
	method, path string
	status       int
	body         []byte
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	c.mu.Lock()
	c.bodies = append(c.bodies, sentBody{r.Method, r.URL.Path, resp.StatusCode, b})
	c.mu.Unlock()
	return resp, nil
}

// missingKeys lists the keys of raw (a JSON value the fake sent) that the
// official type does not have (by its fields' JSON names, at every
// depth): a key the fake spells in a way Mattermost does not. The value
// must also decode into the official type.
func missingKeys(t *testing.T, raw []byte, official any) []string {
	t.Helper()
	if err := json.Unmarshal(raw, official); err != nil {
		t.Fatalf("the official type does not take %s: %v", raw, err)
	}
	var v any
	json.Unmarshal(raw, &v)
	var out []string
	typeKeys("", v, reflect.TypeOf(official), &out)
	sort.Strings(out)
	return out
}

func typeKeys(prefix string, v any, t reflect.Type, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			for k, e := range x {
				typeKeys(prefix+k+".", e, t.Elem(), out)
			}
		case reflect.Struct:
			fields := map[string]reflect.Type{}
			jsonFields(t, fields)
			for k, e := range x {
				ft, ok := fields[k]
				if !ok {
					*out = append(*out, prefix+k)
					continue
				}
				typeKeys(prefix+k+".", e, ft, out)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for _, e := range x {
				typeKeys(prefix+"[].", e, t.Elem(), out)
			}
		}
	}
}

// jsonFields are a struct type's fields by JSON name, embedded ones
// included.
func jsonFields(t reflect.Type, into map[string]reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				jsonFields(ft, into)
				continue
			}
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[name] = f.Type
	}
}

// TestRESTBodiesAreMattermosts drives the fake with the official Client4
// through every route gatewayd uses, and round-trips each body it sent
// through the official type.
func TestRESTBodiesAreMattermosts(t *testing.T) {
	srv := fakemattermost.Start(fakemattermost.Options{})
	defer srv.Close()
	bot, token := srv.AddUser("boxmaker", true)
	ann, annToken := srv.AddUser("ann", false)
	cap := &capture{next: http.DefaultTransport}
	c := model.NewAPIv4Client(srv.URL)
	c.HTTPClient = &http.Client{Transport: cap}
	c.SetToken(token)
	ctx := context.Background()

	if s, _, err := c.GetPing(ctx); err != nil || s != "OK" {
		t.Fatalf("GetPing: %q %v", s, err)
	}
	me, _, err := c.GetMe(ctx, "")
	if err != nil || me.Id != bot.ID || !me.IsBot || me.Username != "boxmaker" {
		t.Fatalf("GetMe: %+v %v", me, err)
	}
	if u, _, err := c.GetUser(ctx, ann.ID, ""); err != nil || u.Username != "ann" {
		t.Fatalf("GetUser: %+v %v", u, err)
	}
	dm, _, err := c.CreateDirectChannel(ctx, bot.ID, ann.ID)
	if err != nil || dm.Type != model.ChannelTypeDirect || dm.Name != model.GetDMNameFromIds(bot.ID, ann.ID) {
		t.Fatalf("CreateDirectChannel: %+v %v", dm, err)
	}
	chans, _, err := c.GetChannelsForUserWithLastDeleteAt(ctx, bot.ID, 0)
	if err != nil || len(chans) != 1 || chans[0].Id != dm.Id {
		t.Fatalf("GetChannelsForUserWithLastDeleteAt: %+v %v", chans, err)
	}
	root, err := srv.PostAs(ann.ID, dm.Id, "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	reply, _, err := c.CreatePost(ctx, &model.Post{ChannelId: dm.Id, RootId: root.ID, Message: "…", Props: model.StringInterface{"boxmaker_reply_to": root.ID}})
	if err != nil || reply.RootId != root.ID || reply.GetProp("boxmaker_reply_to") != root.ID || reply.GetProp("from_bot") != "true" {
		t.Fatalf("CreatePost: %+v %v", reply, err)
	}
	msg := "Hello."
	if p, _, err := c.PatchPost(ctx, reply.Id, &model.PostPatch{Message: &msg}); err != nil || p.Message != msg || p.EditAt == 0 {
		t.Fatalf("PatchPost: %+v %v", p, err)
	}
	if p, _, err := c.GetPost(ctx, reply.Id, ""); err != nil || p.Message != msg {
		t.Fatalf("GetPost: %+v %v", p, err)
	}
	thread, _, err := c.GetPostThread(ctx, reply.Id, "", false)
	if err != nil || len(thread.Order) != 2 || thread.Posts[root.ID] == nil {
		t.Fatalf("GetPostThread: %+v %v", thread, err)
	}
	after, _, err := c.GetPostsAfter(ctx, dm.Id, root.ID, 0, 200, "", false, false)
	if err != nil || len(after.Order) != 1 || after.Order[0] != reply.Id {
		t.Fatalf("GetPostsAfter: %+v %v", after, err)
	}
	page, _, err := c.GetPostsForChannel(ctx, dm.Id, 0, 60, "", false, false)
	if err != nil || len(page.Order) != 2 || page.Order[0] != reply.Id {
		t.Fatalf("GetPostsForChannel (newest first): %+v %v", page, err)
	}
	if _, err := c.PublishUserTyping(ctx, bot.ID, model.TypingRequest{ChannelId: dm.Id, ParentId: root.ID}); err != nil {
		t.Fatalf("PublishUserTyping: %v", err)
	}
	// An approval request's box: a message attachment in props, as
	// gatewayd posts and patches it, read back as Mattermost's type.
	box := model.StringInterface{"boxmaker_approval": "abc234", "attachments": []any{map[string]any{
		"fallback": "Approval abc234", "color": "#d24b4e", "title": "Approval abc234: the whole call", "text": "```text\nx\n```", "footer": "gatewayd"}}}
	boxed, _, err := c.CreatePost(ctx, &model.Post{ChannelId: dm.Id, Message: "**Boxmaker asks for approval `abc234`**", Props: box})
	if err != nil || len(boxed.Attachments()) != 1 || boxed.Attachments()[0].Footer != "gatewayd" || boxed.Attachments()[0].Color != "#d24b4e" {
		t.Fatalf("CreatePost with an attachment: %+v %v", boxed, err)
	}
	settled := model.StringInterface{"boxmaker_approval": "abc234", "attachments": []any{map[string]any{"title": "Approval abc234: expired", "color": "#8a8a8a"}}}
	if p, _, err := c.PatchPost(ctx, boxed.Id, &model.PostPatch{Message: &msg, Props: &settled}); err != nil ||
		len(p.Attachments()) != 1 || p.Attachments()[0].Title != "Approval abc234: expired" || p.GetProp("from_bot") != "true" {
		t.Fatalf("PatchPost with props: %+v %v", p, err)
	}
	// A channel, its members and its team's, as gatewayd reads them to
	// know who can read a reply.
	bob, _ := srv.AddUser("bob", false)
	open := srv.NewChannel("town-square", bot.ID, ann.ID)
	srv.JoinTeam(bob.ID)
	if ch, _, err := c.GetChannel(ctx, open.ID); err != nil || ch.Type != model.ChannelTypeOpen || ch.TeamId == "" {
		t.Fatalf("GetChannel: %+v %v", ch, err)
	}
	if ch, _, err := c.GetChannel(ctx, dm.Id); err != nil || ch.Type != model.ChannelTypeDirect {
		t.Fatalf("GetChannel of a DM: %+v %v", ch, err)
	}
	members, _, err := c.GetChannelMembers(ctx, open.ID, 0, 200, "")
	if err != nil || len(members) != 2 || members[0].ChannelId != open.ID {
		t.Fatalf("GetChannelMembers: %+v %v", members, err)
	}
	if page, _, err := c.GetChannelMembers(ctx, open.ID, 1, 1, ""); err != nil || len(page) != 1 {
		t.Fatalf("GetChannelMembers page 1 of 1: %+v %v", page, err)
	}
	team, _, err := c.GetTeamMembers(ctx, open.TeamID, 0, 200, "")
	if err != nil || len(team) != 3 {
		t.Fatalf("GetTeamMembers: %+v %v", team, err)
	}
	// The errors: a bad root, another's post, and a refused token.
	if _, resp, err := c.CreatePost(ctx, &model.Post{ChannelId: dm.Id, RootId: reply.Id, Message: "x"}); err == nil || resp.StatusCode != 400 {
		t.Fatalf("a reply's id as root_id: %v", err)
	} else if ae, ok := err.(*model.AppError); !ok || ae.Id != "api.post.create_post.root_id.app_error" {
		t.Fatalf("the error is not the AppError Mattermost sends: %#v", err)
	}
	other := model.NewAPIv4Client(srv.URL)
	other.HTTPClient = &http.Client{Transport: cap}
	other.SetToken(annToken)
	if _, resp, err := other.PatchPost(ctx, reply.Id, &model.PostPatch{Message: &msg}); err == nil || resp.StatusCode != 403 {
		t.Fatalf("patching another's post: %v", err)
	}
	other.SetToken("nope")
	if _, resp, err := other.GetMe(ctx, ""); err == nil || resp.StatusCode != 401 {
		t.Fatalf("a bad token: %v", err)
	}

	kinds := map[string]func() any{
		"users/me":  func() any { return new(model.User) },
		"user":      func() any { return new(model.User) },
		"channels":  func() any { return new([]*model.Channel) },
		"channel":   func() any { return new(model.Channel) },
		"members":   func() any { return new(model.ChannelMembers) },
		"team":      func() any { return new([]*model.TeamMember) },
		"post":      func() any { return new(model.Post) },
		"postlist":  func() any { return new(model.PostList) },
		"apperror":  func() any { return new(model.AppError) },
		"status ok": func() any { return new(map[string]string) },
	}
	seen := map[string]int{}
	for _, b := range cap.bodies {
		kind := ""
		switch p := strings.TrimPrefix(b.path, "/api/v4"); {
		case b.status >= 400:
			kind = "apperror"
		case p == "/system/ping" || strings.HasSuffix(p, "/typing"):
			kind = "status ok"
		case p == "/users/me":
			kind = "users/me"
		case strings.HasSuffix(p, "/channels") && strings.HasPrefix(p, "/users/"):
			kind = "channels"
		case strings.HasPrefix(p, "/users/"):
			kind = "user"
		case strings.HasPrefix(p, "/channels/") && strings.HasSuffix(p, "/members"):
			kind = "members"
		case strings.HasPrefix(p, "/teams/") && strings.HasSuffix(p, "/members"):
			kind = "team"
		case p == "/channels/direct" || strings.HasPrefix(p, "/channels/") && strings.Count(p, "/") == 2:
			kind = "channel"
		case strings.HasSuffix(p, "/thread") || strings.HasSuffix(p, "/posts") && strings.HasPrefix(p, "/channels/"):
			kind = "postlist"
		case strings.HasPrefix(p, "/posts"):
			kind = "post"
		default:
			t.Fatalf("a body of %s %s that no kind covers", b.method, b.path)
		}
		seen[kind]++
		if miss := missingKeys(t, b.body, kinds[kind]()); len(miss) > 0 {
			t.Errorf("%s %s (%s): keys the official type does not have: %v\n%s", b.method, b.path, kind, miss, b.body)
		}
	}
	for k := range kinds {
		if seen[k] == 0 {
			t.Errorf("no body of kind %s was checked", k)
		}
	}
}

// TestWebSocketFramesAreMattermosts reads the fake's frames with the
// official reliable client (header auth, as gatewayd) and raw, decoding
// each with the official types: hello, posted (its post a JSON string),
// post_edited, typing, and the answer to a ping.
func TestWebSocketFramesAreMattermosts(t *testing.T) {
	srv := fakemattermost.Start(fakemattermost.Options{})
	defer srv.Close()
	bot, token := srv.AddUser("boxmaker", true)
	ann, annToken := srv.AddUser("ann", false)
	dm := srv.DM(bot.ID, ann.ID)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http")

	// The official client.
	wsc, err := model.NewReliableWebSocketClientWithDialer(websocket.DefaultDialer, wsURL, token, "", 0, true)
	if err != nil {
		t.Fatalf("NewReliableWebSocketClientWithDialer: %v", err)
	}
	wsc.Listen()
	defer wsc.Close()
	// Raw frames, as they come.
	raw, _, err := websocket.DefaultDialer.Dial(wsURL+"/api/v4/websocket", http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.WriteJSON(map[string]any{"seq": 1, "action": "ping"})
	// Both sockets attached before the first post: an event sent before
	// a socket is there is not its to get (the test raced here).
	for deadline := time.Now().Add(10 * time.Second); srv.Sockets() < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d WebSockets open, not 2", srv.Sockets())
		}
	}

	p, err := srv.PostAs(ann.ID, dm.ID, "", "hello @boxmaker")
	if err != nil {
		t.Fatal(err)
	}
	c := model.NewAPIv4Client(srv.URL)
	c.SetToken(annToken)
	c.PublishUserTyping(context.Background(), ann.ID, model.TypingRequest{ChannelId: dm.ID})
	bc := model.NewAPIv4Client(srv.URL)
	bc.SetToken(token)
	reply, _, err := bc.CreatePost(context.Background(), &model.Post{ChannelId: dm.ID, RootId: p.ID, Message: "…"})
	if err != nil {
		t.Fatal(err)
	}
	m := "Hi."
	bc.PatchPost(context.Background(), reply.Id, &model.PostPatch{Message: &m})
	// A member added to a channel of the bot's: user_added, its data the
	// user and the team, its broadcast the channel.
	town := srv.NewChannel("town-square", bot.ID, ann.ID)
	bob, _ := srv.AddUser("bob", false)
	srv.AddMember(town.ID, bob.ID)

	got := map[model.WebsocketEventType]*model.WebSocketEvent{}
	timeout := time.After(10 * time.Second)
	for len(got) < 4 {
		select {
		case ev := <-wsc.EventChannel:
			if _, ok := got[ev.EventType()]; !ok {
				got[ev.EventType()] = ev
			}
		case <-timeout:
			t.Fatalf("the official client got only %v", keys(got))
		}
	}
	posted := got[model.WebsocketEventPosted]
	var post model.Post
	if err := json.Unmarshal([]byte(posted.GetData()["post"].(string)), &post); err != nil || post.Id != p.ID {
		t.Fatalf("posted's post: %v %s", err, post.Id)
	}
	if posted.GetData()["channel_type"] != "D" || posted.GetData()["mentions"] != `["`+bot.ID+`"]` {
		t.Errorf("posted's data: %v", posted.GetData())
	}
	if got[model.WebsocketEventHello].GetData()["connection_id"] == "" {
		t.Errorf("hello has no connection_id")
	}

	// Each raw frame decodes as an official event or response, and keeps
	// no key the official type drops; seq counts from 0.
	raw.SetReadDeadline(time.Now().Add(10 * time.Second))
	var seqs []int64
	sawResponse := false
	sawAdded := false
	for len(seqs) < 5 || !sawResponse || !sawAdded {
		_, data, err := raw.ReadMessage()
		if err != nil {
			t.Fatalf("raw frames: %v (seqs %v)", err, seqs)
		}
		var probe map[string]any
		json.Unmarshal(data, &probe)
		if _, ok := probe["event"]; !ok {
			sawResponse = true
			var resp model.WebSocketResponse
			if miss := missingKeys(t, data, &resp); len(miss) > 0 || resp.Status != "OK" || resp.SeqReply != 1 || resp.Data["text"] != "pong" {
				t.Errorf("a response %s: %+v, keys missing %v", data, resp, miss)
			}
			continue
		}
		ev, err := model.WebSocketEventFromJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("WebSocketEventFromJSON(%s): %v", data, err)
		}
		seqs = append(seqs, ev.GetSequence())
		if ev.EventType() == model.WebsocketEventUserAdded {
			sawAdded = true
			if ev.GetBroadcast().ChannelId != town.ID || ev.GetData()["user_id"] != bob.ID || ev.GetData()["team_id"] != town.TeamID {
				t.Errorf("user_added: %s", data)
			}
		}
		again, _ := ev.ToJSON()
		var a, b any
		json.Unmarshal(data, &a)
		json.Unmarshal(again, &b)
		var miss []string
		diffKeys("", a, b, &miss)
		if len(miss) > 0 {
			t.Errorf("an event %s: keys the official type does not keep: %v", data, miss)
		}
		if s, ok := ev.GetData()["post"].(string); ok {
			if miss := missingKeys(t, []byte(s), new(model.Post)); len(miss) > 0 {
				t.Errorf("an event's post %s: keys the official type does not have: %v", s, miss)
			}
		}
	}
	for i, s := range seqs {
		if s != int64(i) {
			t.Fatalf("seqs %v: not 0, 1, 2, ...", seqs)
		}
	}
}

func keys(m map[model.WebsocketEventType]*model.WebSocketEvent) []string {
	var out []string
	for k := range m {
		out = append(out, string(k))
	}
	return out
}

// diffKeys lists the keys of fake (at every depth of objects) that
// official, the official type's encoding of the same frame, does not have.
func diffKeys(prefix string, fake, official any, out *[]string) {
	f, ok := fake.(map[string]any)
	if !ok {
		return
	}
	o, _ := official.(map[string]any)
	for k, v := range f {
		ov, ok := o[k]
		if !ok {
			*out = append(*out, prefix+k)
			continue
		}
		diffKeys(prefix+k+".", v, ov, out)
	}
}
