package runner

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// ToolsImageName is the name a loaded tools image carries, for people
// reading `podman images`. The runner never uses it: [runner] image pins
// the ID.
const ToolsImageName = "localhost/boxmaker-tools:latest"

// Where the image holds its two programs. The runner refuses to mount a
// target over /bin, so a grant cannot hide them.
const (
	ExecutorPath = "/bin/boxmaker"
	BusyboxPath  = "/bin/busybox"
)

// The commands of ExecutorPath the runner runs in the image, and the
// egress proxy's flags: roles/boxmaker defines them by these names, the
// runner's command lines (Args, ProxyArgs) write them.
const (
	CommandToolExec    = "tool-exec"
	CommandEgressProxy = "egress-proxy"

	ProxyFlagSocket       = "socket"
	ProxyFlagHost         = "host"
	ProxyFlagAllowPrivate = "allow-private"
	ProxyFlagTimeoutMS    = "timeout-ms"
	ProxyFlagLifetimeMS   = "lifetime-ms"
	ProxyFlagMaxBytes     = "max-bytes"
)

// Applets are the busybox links the image holds in /bin, the commands a
// `run` tool call can count on.
var Applets = []string{
	"[", "awk", "basename", "cat", "chmod", "cmp", "cp", "cut", "date", "diff",
	"dirname", "du", "echo", "env", "expr", "false", "find", "grep", "head",
	"id", "ln", "ls", "md5sum", "mkdir", "mktemp", "mv", "od", "printf", "ps",
	"pwd", "readlink", "realpath", "rm", "rmdir", "sed", "seq", "sh", "sha256sum",
	"sleep", "sort", "stat", "tail", "tar", "tee", "test", "touch", "tr", "true",
	"uname", "uniq", "wc", "xargs",
}

// epoch is every file's and the image's time: the same inputs give the
// same bytes, so the same image ID (init relies on it).
var epoch = time.Unix(0, 0).UTC()

// ToolsImage is what the tools image is built from: the static boxmaker
// binary (the tool executor) and a static busybox (the shell for `run`).
type ToolsImage struct {
	Executor string
	Busybox  string
}

// CheckStatic says whether the ELF file at path runs without a dynamic
// loader, as it must in an image that holds nothing else.
func CheckStatic(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("%s: not an ELF executable: %w", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			interp, _ := io.ReadAll(io.LimitReader(p.Open(), 4096))
			return fmt.Errorf("%s is dynamically linked (it needs %s); build it static (scripts/build.sh)",
				path, strings.TrimRight(string(interp), "\x00"))
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		return fmt.Errorf("%s is dynamically linked (it needs %s); build it static (scripts/build.sh)",
			path, strings.Join(libs, ", "))
	}
	return nil
}

// ociBlob is one content-addressed file of the archive.
type ociBlob struct {
	mediaType string
	data      []byte
}

func (b ociBlob) digest() string {
	sum := sha256.Sum256(b.data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (b ociBlob) descriptor() map[string]any {
	return map[string]any{"mediaType": b.mediaType, "digest": b.digest(), "size": len(b.data)}
}

// blobs builds the layer, the config and the manifest. The image ID is
// the config's digest.
func (t ToolsImage) blobs() (layer, config, manifest ociBlob, err error) {
	for _, p := range []string{t.Executor, t.Busybox} {
		if err = CheckStatic(p); err != nil {
			return
		}
	}
	var lb bytes.Buffer
	tw := tar.NewWriter(&lb)
	dir := func(name string, mode int64) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: mode, ModTime: epoch, Format: tar.FormatPAX})
	}
	file := func(name, src string) error {
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o755, Size: int64(len(data)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	}
	steps := []func() error{
		func() error { return dir("bin/", 0o755) },
		func() error { return dir("etc/", 0o755) },
		func() error { return dir("tmp/", 0o1777) },
		func() error { return file(strings.TrimPrefix(ExecutorPath, "/"), t.Executor) },
		func() error { return file(strings.TrimPrefix(BusyboxPath, "/"), t.Busybox) },
	}
	for _, a := range Applets {
		steps = append(steps, func() error {
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: "bin/" + a, Linkname: "busybox", Mode: 0o777, ModTime: epoch, Format: tar.FormatPAX})
		})
	}
	steps = append(steps, tw.Close)
	for _, s := range steps {
		if err = s(); err != nil {
			return
		}
	}
	layer = ociBlob{"application/vnd.oci.image.layer.v1.tar", lb.Bytes()}

	cfg, err := json.Marshal(map[string]any{
		"created":      epoch.Format(time.RFC3339),
		"architecture": "amd64",
		"os":           "linux",
		"config": map[string]any{
			"Env":        []string{"PATH=/bin"},
			"Cmd":        []string{ExecutorPath, "version"},
			"WorkingDir": "/",
			"Labels":     map[string]string{"boxmaker": "tools"},
		},
		"rootfs": map[string]any{"type": "layers", "diff_ids": []string{layer.digest()}},
		"history": []map[string]any{{
			"created":    epoch.Format(time.RFC3339),
			"created_by": "boxmaker tools-image",
		}},
	})
	if err != nil {
		return
	}
	config = ociBlob{"application/vnd.oci.image.config.v1+json", cfg}
	man, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.manifest.v1+json",
		"config":        config.descriptor(),
		"layers":        []any{layer.descriptor()},
	})
	if err != nil {
		return
	}
	manifest = ociBlob{"application/vnd.oci.image.manifest.v1+json", man}
	return
}

// ID is the image ID the archive would have (the config's digest),
// computed without writing it.
func (t ToolsImage) ID() (string, error) {
	_, config, _, err := t.blobs()
	if err != nil {
		return "", err
	}
	return config.digest(), nil
}

// WriteArchive writes the image as an oci-archive (a tar of an OCI image
// layout: oci-layout, index.json, blobs/sha256/...) and returns its ID.
func (t ToolsImage) WriteArchive(w io.Writer) (string, error) {
	layer, config, manifest, err := t.blobs()
	if err != nil {
		return "", err
	}
	desc := manifest.descriptor()
	desc["annotations"] = map[string]string{"org.opencontainers.image.ref.name": ToolsImageName}
	index, err := json.Marshal(map[string]any{"schemaVersion": 2, "manifests": []any{desc}})
	if err != nil {
		return "", err
	}
	tw := tar.NewWriter(w)
	put := func(name string, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	for _, d := range []string{"blobs/", "blobs/sha256/"} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return "", err
		}
	}
	if err := put("oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)); err != nil {
		return "", err
	}
	for _, b := range []ociBlob{layer, config, manifest} {
		if err := put("blobs/sha256/"+strings.TrimPrefix(b.digest(), "sha256:"), b.data); err != nil {
			return "", err
		}
	}
	if err := put("index.json", index); err != nil {
		return "", err
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	return config.digest(), nil
}

// LoadImage loads the oci-archive at path with `podman load` and checks
// that Podman now has the image id. Loading the same archive again is
// harmless: Podman keeps one copy.
func LoadImage(ctx context.Context, podman, path, id string) error {
	return LoadImageIn(ctx, podman, Store{}, path, id)
}

// LoadImageIn is LoadImage into the store s.
func LoadImageIn(ctx context.Context, podman string, s Store, path, id string) error {
	out, err := podmanIn(ctx, podman, s, "load", "-q", "-i", path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("podman load: %s", said(out, err))
	}
	got, err := podmanIn(ctx, podman, s, "image", "inspect", "--format", "{{.Id}}", id).CombinedOutput()
	if err != nil {
		return fmt.Errorf("podman image inspect %s after loading: %s", id, said(got, err))
	}
	if g := "sha256:" + strings.TrimPrefix(strings.TrimSpace(string(got)), "sha256:"); g != id {
		return fmt.Errorf("podman loaded %s but the archive's image is %s", g, id)
	}
	return nil
}

// said is what a failed Podman command told us: its output, else the
// error of running it.
func said(out []byte, err error) string {
	s := strings.TrimSpace(string(out))
	if s == "" {
		return err.Error()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return s
	}
	return s + " (" + err.Error() + ")"
}
