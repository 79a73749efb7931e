package runner

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestToolsImageIsReproducible(t *testing.T) {
	img := ToolsImage{Executor: testExe, Busybox: "/bin/busybox"}
	var a, b bytes.Buffer
	idA, err := img.WriteArchive(&a)
	if err != nil {
		t.Fatal(err)
	}
	idB, err := img.WriteArchive(&b)
	if err != nil {
		t.Fatal(err)
	}
	id, err := img.ID()
	if err != nil {
		t.Fatal(err)
	}
	if idA != idB || idA != id || idA != testImage {
		t.Errorf("IDs differ: %s, %s, ID() %s, loaded %s", idA, idB, id, testImage)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two archives of the same programs differ")
	}
}

// The archive is an OCI layout whose index names one manifest, whose
// blobs are where their digests say, and whose layer holds the executor,
// busybox and the applet links.
func TestToolsImageArchiveLayout(t *testing.T) {
	var buf bytes.Buffer
	id, err := ToolsImage{Executor: testExe, Busybox: "/bin/busybox"}.WriteArchive(&buf)
	if err != nil {
		t.Fatal(err)
	}
	files := tarEntries(t, &buf)
	blob := func(digest string) []byte {
		t.Helper()
		f, ok := files["blobs/sha256/"+strings.TrimPrefix(digest, "sha256:")]
		if !ok {
			t.Fatalf("no blob %s", digest)
		}
		if got := (ociBlob{data: f.data}).digest(); got != digest {
			t.Fatalf("blob %s has digest %s", digest, got)
		}
		return f.data
	}
	if string(files["oci-layout"].data) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Errorf("oci-layout: %q", files["oci-layout"].data)
	}
	type desc struct {
		MediaType   string            `json:"mediaType"`
		Digest      string            `json:"digest"`
		Annotations map[string]string `json:"annotations"`
	}
	var index struct{ Manifests []desc }
	if err := json.Unmarshal(files["index.json"].data, &index); err != nil || len(index.Manifests) != 1 {
		t.Fatalf("index.json: %s (%v)", files["index.json"].data, err)
	}
	if got := index.Manifests[0].Annotations["org.opencontainers.image.ref.name"]; got != ToolsImageName {
		t.Errorf("the image is named %q", got)
	}
	var manifest struct {
		Config desc
		Layers []desc
	}
	if err := json.Unmarshal(blob(index.Manifests[0].Digest), &manifest); err != nil || len(manifest.Layers) != 1 {
		t.Fatalf("manifest: %v", err)
	}
	if manifest.Config.Digest != id {
		t.Errorf("the config's digest %s is not the ID %s", manifest.Config.Digest, id)
	}
	blob(manifest.Config.Digest)
	got := map[string]string{}
	for name, f := range tarEntries(t, bytes.NewReader(blob(manifest.Layers[0].Digest))) {
		got[name] = f.h.Linkname
	}
	exe, _ := os.ReadFile(testExe)
	want := map[string]string{"bin/": "", "etc/": "", "tmp/": "", "bin/boxmaker": "", "bin/busybox": ""}
	for _, a := range Applets {
		want["bin/"+a] = "busybox"
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("layer (-want +got):\n%s", diff)
	}
	if len(exe) == 0 {
		t.Fatal("no executor")
	}
}

type tarEntry struct {
	h    *tar.Header
	data []byte
}

// tarEntries reads the tar stream r whole: each entry's header and data,
// by its name.
func tarEntries(t *testing.T, r io.Reader) map[string]tarEntry {
	t.Helper()
	entries := map[string]tarEntry{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return entries
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		entries[h.Name] = tarEntry{h, data}
	}
}

func TestCheckStatic(t *testing.T) {
	notELF := filepath.Join(t.TempDir(), "script")
	writeTestFile(t, notELF, "#!/bin/sh\necho this is a script, not a program\n")
	tests := []struct {
		name, path, want string
	}{
		{"the static build", testExe, ""},
		{"busybox-static", "/bin/busybox", ""},
		{"a dynamic binary", "/usr/bin/podman", "/usr/bin/podman is dynamically linked (it needs /lib64/ld-linux-x86-64.so.2); build it static (scripts/build.sh)"},
		{"not an ELF file", notELF, notELF + ": not an ELF executable: bad magic number '[35 33 47 98]' in record at byte 0x0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckStatic(tt.path)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := (ToolsImage{Executor: "/usr/bin/podman", Busybox: "/bin/busybox"}).ID(); err == nil {
		t.Error("an image with a dynamic executor was built")
	}
}

// Loading is idempotent: a second load of the same archive keeps the ID,
// and the loaded image runs the executor.
func TestLoadAgainKeepsTheID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tools.tar")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := ToolsImage{Executor: testExe, Busybox: "/bin/busybox"}.WriteArchive(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := LoadImage(ctx, "podman", path, id); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("podman", "run", "--rm", "--runtime", "runc", "--ulimit", "nofile=1024:1024",
		"--ulimit", "nproc=256:256", "--network", "none", id, ExecutorPath, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "boxmaker ") {
		t.Errorf("the image's executor: %q, %v", out, err)
	}
}
