package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"boxmaker/core/role"
)

// Uninstall removes what Install made. The home and the configs stay
// unless RemoveHome or RemoveConfig ask for them by name.
type Uninstall struct {
	Layout
	Roles        []role.Role
	RemoveHome   bool // /var/lib/boxmaker: the audit log, sessions, memory
	RemoveConfig bool // /etc/boxmaker and gatewayd's encrypted token
	Host         Host
}

// unitMark is in every unit install writes: uninstall removes only those.
const unitMark = "Written by `boxmaker install`"

// Plan is the steps of the uninstall. Nothing is touched while planning.
func (u *Uninstall) Plan() []Step {
	var steps []Step
	systemd := u.Root == "" && u.Host.Systemd()
	if systemd {
		args := append([]string{"disable", "--now", Target}, ServiceUnits()...)
		steps = append(steps, Step{
			Say: "stop every daemon (gatewayd first, brokerd last) and disable them: systemctl " + strings.Join(args, " "),
			Do:  func() error { return u.Host.Systemctl(args...) },
		})
	}
	for _, name := range append(ServiceUnits(), Target) {
		host := filepath.Join(UnitDir, name)
		p := u.OnDisk(host)
		data, err := os.ReadFile(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil || !bytes.Contains(data, []byte(unitMark)):
			steps = append(steps, Step{Say: fmt.Sprintf("keep %s (boxmaker install did not write it)", host)})
			continue
		}
		steps = append(steps, Step{Say: "remove " + host, Do: func() error { return os.Remove(p) }})
	}
	if systemd {
		steps = append(steps, Step{Say: "systemctl daemon-reload", Do: func() error { return u.Host.Systemctl("daemon-reload") }})
	}
	for _, r := range u.Roles {
		host := filepath.Join(u.Bin(), r.String())
		p := u.OnDisk(host)
		if target, err := os.Readlink(p); err == nil && target == binaryName {
			steps = append(steps, Step{Say: "remove the link " + host, Do: func() error { return os.Remove(p) }})
		}
	}
	if _, err := os.Lstat(u.OnDisk(u.Binary())); err == nil {
		steps = append(steps, Step{Say: "remove " + u.Binary(), Do: func() error { return os.Remove(u.OnDisk(u.Binary())) }})
	}
	if u.RemoveConfig {
		steps = append(steps,
			Step{Say: fmt.Sprintf("remove %s: every configuration and grant (--remove-config)", ConfigDir),
				Do: func() error { return os.RemoveAll(u.OnDisk(ConfigDir)) }},
			Step{Say: fmt.Sprintf("remove %s, gatewayd's token (--remove-config)", CredentialFile),
				Do: func() error { return removeIfThere(u.OnDisk(CredentialFile)) }})
	} else {
		steps = append(steps, Step{Say: fmt.Sprintf("keep %s and %s (--remove-config removes them)", ConfigDir, CredentialFile)})
	}
	if u.RemoveHome {
		steps = append(steps, Step{Say: fmt.Sprintf("remove the home %s: the audit log, sessions and memory (--remove-home)", Home),
			Do: func() error { return os.RemoveAll(u.OnDisk(Home)) }})
	} else {
		steps = append(steps, Step{Say: fmt.Sprintf("keep the home %s: the audit log, sessions and memory (--remove-home removes it)", Home)})
	}
	steps = append(steps, Step{Say: "keep the tools image in Podman (`podman image ls` lists it; `podman rmi` with its ID removes it)"})
	return steps
}

func removeIfThere(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
