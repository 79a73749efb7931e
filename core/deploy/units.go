// Package deploy is Boxmaker installed on a host as systemd services: where
// an installed system keeps its files, its unit files, and the steps of an
// install, an upgrade over an older install, and an uninstall.
//
// The layout of an installed host (docs/deployment.md):
//
//	<prefix>/bin/boxmaker              the one binary; <prefix>/bin/<role> links to it
//	/etc/boxmaker/<role>.toml          configs, written once, never overwritten
//	/etc/boxmaker/grants/              the grants directory
//	/var/lib/boxmaker/                 the home (0700), systemd's StateDirectory
//	/etc/systemd/system/<role>.service and boxmaker.target
//	/etc/credstore.encrypted/boxmaker-mattermost-token  gatewayd's token (the owner makes it)
package deploy

import (
	"embed"
	"fmt"
	"path/filepath"
	"strings"
	"text/template"

	"boxmaker/core/conf"
	"boxmaker/core/role"
)

// The fixed places of an installed system: systemd's StateDirectory= and
// ConfigurationDirectory= name them relative to /var/lib and /etc.
const (
	ConfigDir = "/etc/boxmaker"
	Home      = "/var/lib/boxmaker"
	GrantsDir = ConfigDir + "/grants"
	UnitDir   = "/etc/systemd/system"
	// gatewayd's Mattermost token: the credential's name in
	// $CREDENTIALS_DIRECTORY, and the encrypted file it is loaded from.
	Credential     = "mattermost-token"
	CredentialFile = "/etc/credstore.encrypted/boxmaker-mattermost-token"
	// DefaultPrefix is where the binary goes without --prefix.
	DefaultPrefix = "/usr/local"
	// Target is the unit that starts every daemon.
	Target = "boxmaker.target"
)

// ConfigFile is r's configuration on an installed system:
// /etc/boxmaker/<role>.toml.
func ConfigFile(r role.Role) string { return filepath.Join(ConfigDir, r.String()+".toml") }

// Services are the daemons with a unit, in the order they start and the
// reverse of the order they stop (conf.Daemons).
var Services = conf.Daemons()

// ServiceUnits are the units of Services, in the same order.
func ServiceUnits() []string {
	u := make([]string, len(Services))
	for i, s := range Services {
		u[i] = s.String() + ".service"
	}
	return u
}

// Layout says where an install puts things. Paths inside units and
// configs are the host's; Root, when set, is a directory every file is
// written under instead of / (tests, and building a tree for a package).
type Layout struct {
	Root   string
	Prefix string
}

// Bin is the directory of the binary and its role links, as the units name it.
func (l Layout) Bin() string { return filepath.Join(l.Prefix, "bin") }

// binaryName is the installed binary's name in Bin, which each role's
// link there points at (relative, so the tree moves as one).
const binaryName = "boxmaker"

// Binary is the installed binary, as the units name it.
func (l Layout) Binary() string { return filepath.Join(l.Bin(), binaryName) }

// OnDisk is where a host path is written: under Root.
func (l Layout) OnDisk(hostPath string) string {
	if l.Root == "" {
		return hostPath
	}
	return filepath.Join(l.Root, hostPath)
}

// Unit is one unit file.
type Unit struct {
	Name string // brokerd.service, boxmaker.target
	Text string
}

//go:embed units
var unitFiles embed.FS

// Units renders every unit file for l: the services in start order, then
// the target.
func Units(l Layout) ([]Unit, error) {
	hardening, err := unitFiles.ReadFile("units/hardening.inc")
	if err != nil {
		return nil, err
	}
	data := struct {
		Bin, ConfigDir, Home, Credential, CredentialFile string
		Services                                         string // the target's Wants= and After=
	}{l.Bin(), ConfigDir, Home, Credential, CredentialFile, strings.Join(ServiceUnits(), " ")}
	var out []Unit
	for _, name := range append(ServiceUnits(), Target) {
		raw, err := unitFiles.ReadFile("units/" + name)
		if err != nil {
			return nil, err
		}
		text := strings.Replace(string(raw), "@hardening\n", string(hardening), 1)
		t, err := template.New(name).Option("missingkey=error").Parse(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var b strings.Builder
		if err := t.Execute(&b, data); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, Unit{Name: name, Text: b.String()})
	}
	return out, nil
}
