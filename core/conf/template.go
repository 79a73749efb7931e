package conf

import (
	"os"
	"strings"
	"text/template"

	"github.com/pelletier/go-toml/v2"

	homepkg "boxmaker/core/home"
	"boxmaker/core/role"
)

// Role is one daemon's or the CLI's configuration file.
type Role struct {
	Name     role.Role // the file is <Name>.toml
	New      func() any
	template string
	// Ready is the key of the socket that answers once the daemon is
	// ready, which boxmaker up waits on before it starts the next (none:
	// up does not wait); ReadyPing says it answers core/daemon's ping
	// (inferproxy's is HTTP: a connection is its answer).
	Ready     []string
	ReadyPing bool
}

// Roles are the configuration files `boxmaker init` writes, in order.
var Roles = []Role{
	{role.Brokerd, func() any { return new(Brokerd) }, brokerdTemplate, []string{"sockets", "broker"}, true},
	{role.Memoryd, func() any { return new(Memoryd) }, memorydTemplate, []string{"sockets", "block"}, true},
	{role.Inferproxy, func() any { return new(Inferproxy) }, inferproxyTemplate, []string{"listen"}, false},
	{role.Loopd, func() any { return new(Loopd) }, loopdTemplate, []string{"sockets", "loop"}, true},
}

// Optional are the configuration files `boxmaker init` writes with every
// key commented out, for daemons that need what only the owner knows (a
// Mattermost server and its token): `boxmaker up` starts such a daemon
// once its file sets something, and `boxmaker install` writes none of
// them (it checks one that exists).
var Optional = []Role{
	// No Ready: gatewayd starts last, and no daemon up starts needs it.
	{role.Gatewayd, func() any { return new(Gatewayd) }, gatewaydTemplate, nil, false},
}

// Daemons are the daemons' names in the order they start (and the
// reverse of the order they stop: brokerd last, so that its stop record
// ends the audit log): those of Roles, then those of Optional. loopd's
// selftest needs inferproxy, and its sessions memoryd and brokerd. It is
// the one list of the daemons: boxmaker up, the demo and the units
// follow it.
func Daemons() []role.Role {
	var names []role.Role
	for _, r := range Files() {
		names = append(names, r.Name)
	}
	return names
}

// Files are the daemons' configuration files in the order they start:
// Roles, then Optional.
func Files() []Role { return append(append([]Role{}, Roles...), Optional...) }

// SetsNothing reports whether the config at path holds no key at all
// (only comments), as init writes the configs of Optional daemons: such a
// daemon is not configured.
func SetsNothing(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return false, err
	}
	return len(doc) == 0, nil
}

// Render writes the role's commented development configuration, with
// every path inside home.
func (r Role) Render(home string) string { return r.RenderWith(TemplateData{Home: home}) }

// TemplateData is what a template may name.
type TemplateData struct {
	Home       string
	ToolsImage string // [runner] image; empty when init cannot compute it
	// Grants is brokerd's [paths] grants: Home/etc/grants when empty (a
	// development home); /etc/boxmaker/grants when installed.
	Grants string
	// OwnerUID and OwnerGID are [runner] owner_uid and owner_gid: the
	// user brokerd acts for (0: not known yet).
	OwnerUID, OwnerGID int
	// AllowUIDs is brokerd's, loopd's and memoryd's [sockets] allow_uids,
	// the uids between the brackets ("1000"; empty: none): init as root
	// names the owner, whose bxctl then reaches the home (D880).
	AllowUIDs string
	// Upstream is inferproxy's upstream and Model loopd's model (the
	// defaults when empty); ExpectSHA256, ExpectNCtx and ExpectSlots are
	// loopd's [expect] (empty and 0: not known yet). init --model-url
	// fills them from the server.
	Upstream, Model         string
	ExpectSHA256            string
	ExpectNCtx, ExpectSlots int
}

// TemplateSockets are the home's default sockets (core/home's Socket*)
// under TemplateData.Home, as the templates name them: {{.Sockets.Loop}}.
type TemplateSockets struct {
	BrokerTools, BrokerAdmin, BrokerState string
	MemoryBlock, MemoryTools, MemoryAdmin string
	Loop, Infer, Gateway                  string
}

// Sockets are the home's default sockets: the templates write where
// core/home says they are, which the clients that assume the default
// (the demo, gatewayd's and yaag's loop socket) rely on.
func (d TemplateData) Sockets() TemplateSockets {
	in := func(rel string) string { return d.Home + "/" + rel }
	return TemplateSockets{
		BrokerTools: in(homepkg.SocketBrokerTools), BrokerAdmin: in(homepkg.SocketBrokerAdmin), BrokerState: in(homepkg.SocketBrokerState),
		MemoryBlock: in(homepkg.SocketMemoryBlock), MemoryTools: in(homepkg.SocketMemoryTools), MemoryAdmin: in(homepkg.SocketMemoryAdmin),
		Loop: in(homepkg.SocketLoop), Infer: in(homepkg.SocketInfer), Gateway: in(homepkg.SocketGateway),
	}
}

// DefaultToolUID is conf.DefaultToolUID, for brokerd's template.
func (TemplateData) DefaultToolUID() int { return DefaultToolUID }

// DefaultSeccompBase is conf.DefaultSeccompBase, for brokerd's template.
func (TemplateData) DefaultSeccompBase() string { return DefaultSeccompBase }

// RenderWith is Render with every value a template may name.
func (r Role) RenderWith(d TemplateData) string {
	if d.Grants == "" {
		d.Grants = d.Home + "/etc/grants"
	}
	t := template.Must(template.New(r.Name.String()).Parse(r.template))
	var b strings.Builder
	if err := t.Execute(&b, d); err != nil {
		panic(err) // the templates are constants; a failure is a bug caught by the tests
	}
	return b.String()
}
