package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"boxmaker/runbook"
)

// Store is a Podman store of brokerd's own (D1046): the tool calls'
// containers, the yaag Runs' and the egress proxies', with the tools
// image only in it. Every podman process reads and rewrites its store's
// files, so a call in a store of its own does not pay for the machine's
// other images, layers and containers, nor for the storage-only leftovers
// a podman killed mid-create leaves in the shared one (D1001). The zero
// Store is Podman's default store.
type Store struct {
	// Root is Podman's --root: images, layers, containers and libpod's
	// database, in brokerd's home (<home>/podman, 0700).
	Root string
	// RunRoot and TmpDir are --runroot and --tmpdir: what Podman keeps
	// while containers run, on /run (a tmpfs, which a reboot empties, as
	// Podman expects), StoreRunRoot/<instance>. Podman refuses a run
	// root of more than 50 bytes, which a home's path can be.
	RunRoot string
	TmpDir  string
}

// StoreRunRoot holds every instance's run-time directories of its store.
const StoreRunRoot = "/run/boxmaker-podman"

// StoreRootLink, in StoreRunRoot/<instance>, is a symbolic link to the
// instance's store's Root: `podman --root "$(readlink
// /run/boxmaker-podman/*/root)"` finds every brokerd's store of the host.
const StoreRootLink = "root"

// StoreFor is the store of brokerd's home dir (the home's podman
// directory) for its instance.
func StoreFor(home, instance string) Store {
	run := filepath.Join(StoreRunRoot, instance)
	return Store{Root: filepath.Join(home, "podman"), RunRoot: filepath.Join(run, "run"), TmpDir: filepath.Join(run, "tmp")}
}

// Flags are Podman's global options that select the store: none for the
// default store. With --root alone Podman takes the run root and the
// temporary directory from the store's database, so an operator's
// `podman --root <home>/podman ps` looks in the same store.
func (s Store) Flags() []string {
	if s.Root == "" {
		return nil
	}
	return []string{"--root", s.Root, "--runroot", s.RunRoot, "--tmpdir", s.TmpDir}
}

// podman is a podman command in the runner's own store.
func (r *Runner) podman(ctx context.Context, args ...string) *exec.Cmd {
	return podmanIn(ctx, r.cfg.Podman, r.cfg.Store, args...)
}

// podmanIn is a podman command in store s.
func podmanIn(ctx context.Context, program string, s Store, args ...string) *exec.Cmd {
	full := append(s.Flags(), args...)
	if ctx == nil {
		return exec.Command(program, full...)
	}
	return exec.CommandContext(ctx, program, full...)
}

// stores are the stores the runner's containers can be in: its own and,
// for MCP servers, Podman's default store (mcp.go), each once.
func (r *Runner) stores() []Store {
	if r.cfg.Store.Root == "" {
		return []Store{{}}
	}
	return []Store{r.cfg.Store, {}}
}

// PrepareStore makes the runner's store ready before brokerd serves: its
// directories (root's, 0700: Root in the home, RunRoot and TmpDir under
// StoreRunRoot, none of them a symbolic link), and the tools image in
// it, copied by its ID from Podman's default store, where boxmaker
// tools-image loads it, when the store does not hold it yet. It returns
// what it did, for brokerd's log. Only the holder of the home's lock
// calls it.
func (r *Runner) PrepareStore(ctx context.Context) (did string, err error) {
	s := r.cfg.Store
	if s.Root == "" {
		return "", nil
	}
	defer func() {
		if err != nil {
			why := fmt.Errorf("brokerd's Podman store is not ready: %w", err)
			r.storeErr.Store(&why)
			err = runbook.Refuse(runbook.RunnerUnavailable, "%v", why)
		}
	}()
	for _, d := range []string{s.Root, filepath.Dir(filepath.Dir(s.RunRoot)), filepath.Dir(s.RunRoot), s.RunRoot, s.TmpDir} {
		if err := ownerOnlyDir(d); err != nil {
			return "", err
		}
	}
	// Podman's table of container locks is the machine's, shared by every
	// store: what counts the locks in use, or gives lost ones back
	// (scripts/setup.sh), must list this store's containers too, and
	// finds its root here.
	link := filepath.Join(filepath.Dir(s.RunRoot), StoreRootLink)
	if got, err := os.Readlink(link); err != nil || got != s.Root {
		os.Remove(link)
		if err := os.Symlink(s.Root, link); err != nil {
			return "", err
		}
	}
	if r.cfg.Image == "" {
		return "", nil
	}
	if has, err := r.storeHas(ctx, s, r.cfg.Image); err != nil || has {
		return "", err
	}
	if has, err := r.storeHas(ctx, Store{}, r.cfg.Image); err != nil || !has {
		return "", err // Check says so
	}
	tmp, err := os.MkdirTemp(s.Root, "load-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	archive := filepath.Join(tmp, "tools.tar")
	if out, err := podmanIn(ctx, r.cfg.Podman, Store{}, "save", "--format", "oci-archive", "-o", archive, r.cfg.Image).CombinedOutput(); err != nil {
		return "", fmt.Errorf("podman save %s: %s", r.cfg.Image, said(out, err))
	}
	if err := LoadImageIn(ctx, r.cfg.Podman, s, archive, r.cfg.Image); err != nil {
		return "", err
	}
	return fmt.Sprintf("the tools image %s copied into brokerd's Podman store %s", r.cfg.Image, s.Root), nil
}

// Runtime is the OCI runtime the runner's containers run with, and when
// [runner] runtime = "auto" chose it, why.
func (r *Runner) Runtime() string {
	if r.runtimeWhy != "" {
		return r.runtimeProgram() + " (auto: " + r.runtimeWhy + ")"
	}
	return r.runtimeProgram()
}

// storeHas says whether store s holds the image id.
func (r *Runner) storeHas(ctx context.Context, s Store, id string) (bool, error) {
	out, err := podmanIn(ctx, r.cfg.Podman, s, "image", "exists", id).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		// "No such image": Podman's own failures are 125, and a warning
		// it prints (a CNI file it cannot read) comes with either.
		return false, nil
	}
	return false, fmt.Errorf("cannot ask Podman about the tools image %s: %s", id, said(out, err))
}

// ownerOnlyDir makes dir, a directory of this process's user only, or
// says why it cannot be one: it exists as something else (a link, a
// file) or belongs to another user. Its mode is set to 0700.
func ownerOnlyDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("brokerd's Podman store: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("brokerd's Podman store: %w", err)
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("brokerd's Podman store: %s is not a directory (%s)", dir, fi.Mode().Type())
	case st == nil || int(st.Uid) != os.Geteuid():
		return fmt.Errorf("brokerd's Podman store: %s belongs to another user", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}
