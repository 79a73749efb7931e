package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"boxmaker/core/atomicfile"
	"boxmaker/core/home"
	"boxmaker/core/role"
)

// PodmanStore is rootful Podman's storage, which brokerd.service's
// sandbox leaves writable.
const PodmanStore = "/var/lib/containers"

// PodmanNetworks is Podman's network configuration (netavark.lock, taken
// by every podman run), also writable in brokerd.service.
const PodmanNetworks = "/etc/containers/networks"

// DefaultToolsUser is the system user install makes for the tools when
// --user names none.
const DefaultToolsUser = "boxmaker"

// Host is what an install does outside its own files: the programs it
// runs. roles/boxmaker gives the real one; tests give their own.
type Host interface {
	// CheckConfig runs binary's `<role> serve --check-config --config
	// config` and returns its error output when it fails.
	CheckConfig(binary string, r role.Role, config string) error
	// ToolsImageID is the ID of the tools image binary would build,
	// computed without Podman.
	ToolsImageID(binary string) (string, error)
	// LoadToolsImage builds binary's tools image and loads it into
	// Podman.
	LoadToolsImage(binary string) error
	// Systemd tells whether systemd runs this host (it is PID 1).
	Systemd() bool
	// Systemctl runs systemctl with args.
	Systemctl(args ...string) error
	// EnsureUser makes the system user name unless it exists (create
	// false: it must exist), and returns its uid and gid.
	EnsureUser(name string, create bool) (uid, gid int, err error)
}

// Config is one configuration file install writes when it is missing.
type Config struct {
	Role role.Role // brokerd: the file is /etc/boxmaker/brokerd.toml
	Text string    // boxmaker init's commented config, with installed paths
	// ForOwner, when set, is the text for the user the tools act for,
	// written in Text's place once install knows that user's ids
	// (brokerd's [runner] owner_uid and owner_gid, D521).
	ForOwner func(uid, gid int) string
}

// Install installs Binary, or upgrades an older install to it.
type Install struct {
	Layout
	NewBinary string      // the binary to install: the one running
	Roles     []role.Role // its roles, each linked in Bin
	Configs   []Config    // written when missing
	// User is the system user the tools act as (D521); CreateUser says
	// install may create it.
	User       string
	CreateUser bool
	Host       Host
	Out        io.Writer
}

// Step is one thing an install or uninstall does, said before it is done;
// a dry run says every step and does none.
type Step struct {
	Say string
	Do  func() error
}

// Run says and does each step in order and stops at the first failure.
// With dryRun it only says them.
func Run(out io.Writer, verb string, steps []Step, dryRun bool) error {
	for i, s := range steps {
		fmt.Fprintf(out, "%s: %d. %s\n", verb, i+1, s.Say)
		if dryRun || s.Do == nil {
			continue
		}
		if err := s.Do(); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, s.Say, err)
		}
	}
	if dryRun {
		fmt.Fprintf(out, "%s: dry run: nothing was changed\n", verb)
	}
	return nil
}

// staged is what an install writes before it commits to anything: the new
// binary and the new configs beside their final names.
const stagedSuffix = ".boxmaker-new"

// Plan is the steps of the install, and whether it upgrades an older
// install. Nothing is touched while planning.
func (in *Install) Plan() (steps []Step, upgrade bool, err error) {
	installed := in.OnDisk(in.Binary())
	fi, err := os.Lstat(installed)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return nil, false, fmt.Errorf("%s exists and is not a regular file; not replacing it", installed)
	case err == nil:
		upgrade = true
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, err
	}
	for _, r := range in.Roles {
		p := in.OnDisk(filepath.Join(in.Bin(), r.String()))
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return nil, false, fmt.Errorf("%s exists and is not a symbolic link; not replacing it", p)
		}
	}
	newImage, err := in.Host.ToolsImageID(in.NewBinary)
	if err != nil {
		return nil, false, fmt.Errorf("cannot install %s: %w", in.NewBinary, err)
	}
	oldImage := ""
	if upgrade {
		oldImage, _ = in.Host.ToolsImageID(installed) // an old binary that cannot say keeps its config as is
	}
	stagedBinary := installed + stagedSuffix

	// Stage: the new binary and the configs, beside their final names.
	steps = append(steps, Step{
		Say: fmt.Sprintf("copy %s to %s (staged; nothing installed changes before every check has passed)", in.NewBinary, stagedBinary),
		Do: func() error {
			if err := os.MkdirAll(filepath.Dir(stagedBinary), 0o755); err != nil {
				return err
			}
			return copyFile(in.NewBinary, stagedBinary, 0o755)
		},
	})
	// The tools' user, once known: the owner a new brokerd.toml names.
	ownerUID, ownerGID := 0, 0
	if in.User != "" {
		say := fmt.Sprintf("use the user %s for the tools (it must exist)", in.User)
		create := in.CreateUser && in.Root == ""
		if create {
			say = fmt.Sprintf("create the system user %s for the tools, unless it exists (useradd --system)", in.User)
		} else if in.Root != "" {
			say += " (never created under --root)"
		}
		steps = append(steps, Step{Say: say, Do: func() error {
			uid, gid, err := in.Host.EnsureUser(in.User, create)
			if err == nil {
				ownerUID, ownerGID = uid, gid
				fmt.Fprintf(in.Out, "install:    %s is uid %d, gid %d\n", in.User, uid, gid)
			}
			return err
		}})
	}
	var commits []Step
	var checks []Step
	for _, c := range in.Configs {
		final := in.OnDisk(ConfigFile(c.Role))
		check := final
		data, err := os.ReadFile(final)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			check = final + stagedSuffix
			say := fmt.Sprintf("write %s (boxmaker init's commented configuration, 0600), staged as %s", final, check)
			if c.ForOwner != nil && in.User != "" {
				say += fmt.Sprintf("; [runner] owner_uid and owner_gid are %s's", in.User)
			}
			steps = append(steps, Step{
				Say: say,
				Do: func() error {
					if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
						return err
					}
					text := c.Text
					if c.ForOwner != nil && in.User != "" {
						text = c.ForOwner(ownerUID, ownerGID)
					}
					return atomicfile.WriteFile(check, []byte(text), 0o600)
				},
			})
			commits = append(commits, Step{
				Say: fmt.Sprintf("put %s in place (never over a file that appeared meanwhile)", final),
				Do:  func() error { return placeNew(check, final) },
			})
		case err != nil:
			return nil, false, err
		case c.Role == role.Brokerd && oldImage != "" && oldImage != newImage && bytes.Count(data, []byte(`"`+oldImage+`"`)) == 1:
			// The image install pinned for the old binary follows the
			// binary; any other value is the owner's and stays (D523).
			check = final + stagedSuffix
			edited := bytes.Replace(data, []byte(`"`+oldImage+`"`), []byte(`"`+newImage+`"`), 1)
			steps = append(steps, Step{
				Say: fmt.Sprintf("keep %s, but for [runner] image: the old binary's tools image %s becomes the new one's, %s (staged as %s)", final, oldImage, newImage, check),
				Do:  func() error { return atomicfile.WriteFile(check, edited, modeOf(final)) },
			})
			commits = append(commits, Step{
				Say: fmt.Sprintf("put the edited %s in place", final),
				Do:  func() error { return os.Rename(check, final) },
			})
		default:
			steps = append(steps, Step{Say: fmt.Sprintf("keep %s (it exists; install never overwrites a configuration)", final)})
		}
		r := c.Role
		checks = append(checks, Step{
			Say: fmt.Sprintf("check %s with the new binary: %s %s serve --check-config --config %s", final, filepath.Base(stagedBinary), r, check),
			Do: func() error {
				if err := in.Host.CheckConfig(stagedBinary, r, check); err != nil {
					return &CheckFailed{Role: r, Config: final, Err: err, Upgrade: upgrade}
				}
				return nil
			},
		})
	}
	steps = append(steps, checks...)
	load := Step{
		Say: fmt.Sprintf("load the new binary's tools image %s into root's Podman (%s tools-image)", newImage, filepath.Base(stagedBinary)),
		Do:  func() error { return in.Host.LoadToolsImage(stagedBinary) },
	}
	steps = append(steps, load)

	// Commit: from here on the new version is installed.
	say := fmt.Sprintf("move the new binary into place as %s (one rename)", installed)
	if upgrade {
		say = fmt.Sprintf("replace %s with the new binary (one rename: running daemons keep the old file until they restart)", installed)
	}
	steps = append(steps, Step{Say: say, Do: func() error { return os.Rename(stagedBinary, installed) }})
	for _, r := range in.Roles {
		link := in.OnDisk(filepath.Join(in.Bin(), r.String()))
		steps = append(steps, Step{
			Say: fmt.Sprintf("link %s -> %s", filepath.Join(in.Bin(), r.String()), binaryName),
			Do:  func() error { return replaceLink(binaryName, link) },
		})
	}
	steps = append(steps, commits...)
	steps = append(steps, Step{
		Say: fmt.Sprintf("make %s and %s (0700, root's)", ConfigDir, GrantsDir),
		Do:  func() error { return makePrivateDirs(in.OnDisk(ConfigDir), in.OnDisk(GrantsDir)) },
	})
	steps = append(steps, Step{
		Say: fmt.Sprintf("make Podman's %s and %s unless they exist (brokerd.service may write there and in its home only)", PodmanStore, PodmanNetworks),
		Do: func() error {
			if err := os.MkdirAll(in.OnDisk(PodmanStore), 0o700); err != nil {
				return err
			}
			return os.MkdirAll(in.OnDisk(PodmanNetworks), 0o755)
		},
	})
	var homeDirs []string
	for _, d := range HomeDirs {
		homeDirs = append(homeDirs, in.OnDisk(filepath.Join(Home, d)))
	}
	steps = append(steps, Step{
		Say: fmt.Sprintf("make the home %s (0700) with %s", Home, strings.Join(HomeDirs, ", ")),
		Do:  func() error { return makePrivateDirs(append([]string{in.OnDisk(Home)}, homeDirs...)...) },
	})
	units, err := Units(in.Layout)
	if err != nil {
		return nil, false, err
	}
	changed := false
	for _, u := range units {
		p := in.OnDisk(filepath.Join(UnitDir, u.Name))
		old, err := os.ReadFile(p)
		if err == nil && string(old) == u.Text {
			steps = append(steps, Step{Say: fmt.Sprintf("keep %s (unchanged)", filepath.Join(UnitDir, u.Name))})
			continue
		}
		changed = true
		text := u.Text
		steps = append(steps, Step{
			Say: fmt.Sprintf("write %s", filepath.Join(UnitDir, u.Name)),
			Do: func() error {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return err
				}
				return atomicfile.WriteFile(p, []byte(text), 0o644)
			},
		})
	}
	if in.Root == "" && in.Host.Systemd() {
		if changed {
			steps = append(steps, Step{Say: "systemctl daemon-reload", Do: func() error { return in.Host.Systemctl("daemon-reload") }})
		}
		if upgrade {
			args := append([]string{"try-restart"}, ServiceUnits()...)
			steps = append(steps, Step{
				Say: "restart the daemons that run, in order (brokerd first, gatewayd last; stopped ones stay stopped): systemctl " + strings.Join(args, " "),
				Do:  func() error { return in.Host.Systemctl(args...) },
			})
		}
	} else {
		steps = append(steps, Step{Say: "systemd does not run here: nothing to reload or restart"})
	}
	return steps, upgrade, nil
}

// CheckFailed is a new binary's check of a config that failed: the
// install stopped before changing anything installed.
type CheckFailed struct {
	Role    role.Role
	Config  string
	Err     error
	Upgrade bool
}

func (e *CheckFailed) Error() string {
	if e.Upgrade {
		return fmt.Sprintf("the new binary's %s refuses %s: %v; nothing installed was changed, and the running version goes on", e.Role, e.Config, e.Err)
	}
	return fmt.Sprintf("the new binary's %s refuses %s: %v; nothing was installed", e.Role, e.Config, e.Err)
}

func (e *CheckFailed) Unwrap() error { return e.Err }

// Abandon removes what a failed install staged, and only that.
func (in *Install) Abandon() {
	os.Remove(in.OnDisk(in.Binary()) + stagedSuffix)
	for _, c := range in.Configs {
		os.Remove(in.OnDisk(ConfigFile(c.Role)) + stagedSuffix)
	}
}

// HomeDirs are the home's directories an install makes: core/home's,
// less etc/ (an installed host's configs are in /etc/boxmaker).
var HomeDirs = slices.DeleteFunc(slices.Clone(home.Dirs), func(d string) bool { return d == "etc" || strings.HasPrefix(d, "etc/") })

// OwnerSteps are what the owner must still do after a first install, as
// numbered lines.
func OwnerSteps(l Layout, toolsUser string) []string {
	steps := []string{
		fmt.Sprintf("Write grants in %s, one TOML file each (docs/specs/grants.md); `bxctl grants check` reads them as brokerd will.", GrantsDir),
		fmt.Sprintf("Point %s/inferproxy.toml's upstream at llama-server, set loopd.toml's model, and run `loopd selftest` to see what to write in loopd.toml's [expect].", ConfigDir),
		fmt.Sprintf("For gatewayd (when it is configured): encrypt the Mattermost token as a credential with `systemd-creds encrypt --name=%s - %s` (type the token, then Ctrl-D), and name it in gatewayd.toml: credential = %q.", Credential, CredentialFile, Credential),
		"Grants that write (write_file, run) outside the home need their path writable for brokerd: a drop-in with ReadWritePaths=<path> (docs/deployment.md, \"Grants that write\").",
		fmt.Sprintf("The tools image is loaded into root's Podman: `podman image ls` lists it; install loads it again on every upgrade. Tools act as the user %s.", toolsUser),
		fmt.Sprintf("Start it, and at every boot: `systemctl enable --now %s`; then `systemctl status %s`.", Target, Target),
	}
	return steps
}

func copyFile(from, to string, mode fs.FileMode) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	os.Remove(to)
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		os.Remove(to)
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		os.Remove(to)
		return err
	}
	if err := dst.Close(); err != nil {
		os.Remove(to)
		return err
	}
	return os.Chmod(to, mode)
}

// placeNew moves staged to final unless final exists: a link, then the
// staged name removed, so an existing file is never replaced.
func placeNew(staged, final string) error {
	if err := os.Link(staged, final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			os.Remove(staged)
			return nil
		}
		return err
	}
	return os.Remove(staged)
}

// replaceLink makes link point at target, replacing a symbolic link that is
// there (Plan refused anything else) through a rename.
func replaceLink(target, link string) error {
	tmp := link + stagedSuffix
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
}

func makePrivateDirs(dirs ...string) error {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
		if err := os.Chmod(d, 0o700); err != nil {
			return err
		}
	}
	return nil
}

func modeOf(path string) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o600
}
