package fakehoncho

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Claims are a token's scope, as Honcho's JWTParams (src/security.py):
// `ad` admin, `w` workspace, `p` peer, `s` session; Expires is `exp`.
type Claims struct {
	Admin     bool
	Workspace string
	Peer      string
	Session   string
	Expires   time.Time // zero: never
}

type claims = Claims

// Token mints an HS256 JWT over the server's secret for c (Honcho's
// create_jwt; the `t` claim is the time it was made).
func (s *Server) Token(c Claims) string {
	return MintToken(s.opts.Secret, c)
}

// MintToken is Token for a given secret.
func MintToken(secret string, c Claims) string {
	payload := map[string]any{"t": time.Now().UTC().Format(time.RFC3339)}
	if c.Admin {
		payload["ad"] = true
	}
	for k, v := range map[string]string{"w": c.Workspace, "p": c.Peer, "s": c.Session} {
		if v != "" {
			payload[k] = v
		}
	}
	if !c.Expires.IsZero() {
		payload["exp"] = c.Expires.UTC().Format(time.RFC3339)
	}
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	body, _ := json.Marshal(payload)
	signed := head + "." + enc.EncodeToString(body)
	return signed + "." + enc.EncodeToString(sign(secret, signed))
}

func sign(secret, data string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(data))
	return m.Sum(nil)
}

// authenticate checks the request's token as src/security.py's auth does
// up to the route's own checks: a valid HS256 signature, not expired, and
// a peer or session scope only with a workspace. Without a secret every
// request is admin.
func (s *Server) authenticate(r *http.Request) (Claims, *apiError) {
	if s.opts.Secret == "" {
		return Claims{Admin: true}, nil
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		return Claims{}, fail(401, "No access token provided")
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return Claims{}, fail(401, "Invalid JWT")
	}
	enc := base64.RawURLEncoding
	sig, err := enc.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, sign(s.opts.Secret, parts[0]+"."+parts[1])) {
		return Claims{}, fail(401, "Invalid JWT")
	}
	var head struct {
		Alg string `json:"alg"`
	}
	if b, err := enc.DecodeString(parts[0]); err != nil || json.Unmarshal(b, &head) != nil || head.Alg != "HS256" {
		return Claims{}, fail(401, "Invalid JWT")
	}
	var p struct {
		Ad  *bool   `json:"ad"`
		W   *string `json:"w"`
		P   *string `json:"p"`
		S   *string `json:"s"`
		Exp *string `json:"exp"`
	}
	b, err := enc.DecodeString(parts[1])
	if err != nil || json.Unmarshal(b, &p) != nil {
		return Claims{}, fail(401, "Invalid JWT")
	}
	var c Claims
	if p.Exp != nil && *p.Exp != "" {
		t, err := time.Parse(time.RFC3339Nano, *p.Exp)
		if err != nil {
			return Claims{}, fail(401, "Invalid JWT")
		}
		if t.Before(time.Now()) {
			return Claims{}, fail(401, "JWT expired")
		}
	}
	c.Admin = p.Ad != nil && *p.Ad
	for _, f := range []struct {
		from *string
		to   *string
	}{{p.W, &c.Workspace}, {p.P, &c.Peer}, {p.S, &c.Session}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if (c.Peer != "" || c.Session != "") && c.Workspace == "" {
		return Claims{}, fail(401, "Invalid JWT scope: peer/session token missing workspace")
	}
	return c, nil
}
