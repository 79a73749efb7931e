// Package role is the one list of Boxmaker's roles: the names its one
// binary answers to (argv[0], or the first argument of boxmaker), whose
// configuration is etc/<role>.toml, whose lock is run/<role>.lock and
// whose lines begin "role: ". A Role is made here alone, so a misspelt
// role does not compile, and a name read from outside (argv[0]) is a
// Role only through Lookup.
//
// The daemons among them, in the order they start, are conf.Daemons (the
// configuration files boxmaker init writes); their runbook entries are
// rolecli's.
package role

// Role is one of the binary's roles.
type Role struct{ name string }

// The roles.
var (
	Brokerd    = Role{"brokerd"}
	Memoryd    = Role{"memoryd"}
	Inferproxy = Role{"inferproxy"}
	Loopd      = Role{"loopd"}
	Gatewayd   = Role{"gatewayd"}
	Bxctl      = Role{"bxctl"}
	Yaag       = Role{"yaag"}
)

// all are the roles, sorted by name (as boxmaker --help lists them).
var all = []Role{Brokerd, Bxctl, Gatewayd, Inferproxy, Loopd, Memoryd, Yaag}

// All are the roles, sorted by name.
func All() []Role { return append([]Role(nil), all...) }

// Lookup is the role named name, if there is one.
func Lookup(name string) (Role, bool) {
	for _, r := range all {
		if r.name == name {
			return r, true
		}
	}
	return Role{}, false
}

// String is the role's name: brokerd, memoryd, ...
func (r Role) String() string { return r.name }

// MarshalText writes the role's name, so that a Role in JSON is its name
// (a struct with no exported field would be {}).
func (r Role) MarshalText() ([]byte, error) { return []byte(r.name), nil }

// Names are the names of rs, in their order.
func Names(rs []Role) []string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.name
	}
	return names
}
