package ociarchive

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tree writes two files and returns the entries of an image of them.
func tree(t *testing.T, dir string, mode os.FileMode, mtime time.Time) []Entry {
	t.Helper()
	for name, data := range map[string]string{"prog": "#!/bin/sh\necho hi\n", "data.txt": "some data\n"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return []Entry{
		{Path: "usr/bin/prog", Source: filepath.Join(dir, "prog"), Exec: true},
		{Path: "usr", Dir: true},
		{Path: "usr/bin", Dir: true},
		{Path: "tmp", Dir: true, Sticky: true},
		{Path: "app/data.txt", Source: filepath.Join(dir, "data.txt")},
		{Path: "app", Dir: true},
		{Path: "app/link", Linkname: "data.txt"},
	}
}

func write(t *testing.T, img Image) ([]byte, Written) {
	t.Helper()
	var buf bytes.Buffer
	w, err := img.Write(&buf, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w
}

func TestTheSameFilesGiveTheSameBytes(t *testing.T) {
	cfg := Config{Env: []string{"PATH=/usr/bin"}, Cmd: []string{"/usr/bin/prog"}, User: "65534:65534", CreatedBy: "test"}
	a, wa := write(t, Image{Name: "localhost/x:latest", Entries: tree(t, t.TempDir(), 0o700, time.Now()), Config: cfg})
	// Other modes, other times, another order, another directory.
	entries := tree(t, t.TempDir(), 0o640, time.Unix(1e9, 0))
	for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
		entries[i], entries[j] = entries[j], entries[i]
	}
	b, wb := write(t, Image{Name: "localhost/x:latest", Entries: entries, Config: cfg})
	if !bytes.Equal(a, b) {
		t.Fatalf("two archives of the same files differ (%s, %s)", wa.Manifest, wb.Manifest)
	}
	if wa != wb {
		t.Fatalf("Written differs: %+v, %+v", wa, wb)
	}
	// Another byte of content is another image.
	other := tree(t, t.TempDir(), 0o644, time.Now())
	os.WriteFile(other[4].Source, []byte("other data\n"), 0o644)
	if _, wc := write(t, Image{Name: "localhost/x:latest", Entries: other, Config: cfg}); wc.ID == wa.ID || wc.Manifest == wa.Manifest {
		t.Fatalf("another content gave the same image %+v", wc)
	}
}

// The archive is an OCI layout whose blobs are named by their digests,
// whose manifest is the one Written names, and whose layer holds the
// entries in order with normalised modes, owners and times.
func TestTheArchiveIsAnOCILayout(t *testing.T) {
	data, w := write(t, Image{Name: "localhost/x:latest", Entries: tree(t, t.TempDir(), 0o600, time.Now()), Config: Config{CreatedBy: "test"}})
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		files[h.Name] = b
	}
	for name, b := range files {
		if digest, ok := strings.CutPrefix(name, "blobs/sha256/"); ok && digest != "" {
			sum := sha256.Sum256(b)
			if hex.EncodeToString(sum[:]) != digest {
				t.Errorf("%s holds bytes of digest %x", name, sum)
			}
		}
	}
	var index struct {
		Manifests []struct {
			Digest      string
			Annotations map[string]string
		}
	}
	if err := json.Unmarshal(files["index.json"], &index); err != nil || len(index.Manifests) != 1 {
		t.Fatalf("index.json: %v %s", err, files["index.json"])
	}
	if got := index.Manifests[0]; got.Digest != w.Manifest || got.Annotations["org.opencontainers.image.ref.name"] != "localhost/x:latest" {
		t.Fatalf("index names %+v, want %s", got, w.Manifest)
	}
	var man struct {
		Config struct{ Digest string }
		Layers []struct {
			Digest string
			Size   int64
		}
	}
	if err := json.Unmarshal(files["blobs/sha256/"+strings.TrimPrefix(w.Manifest, "sha256:")], &man); err != nil {
		t.Fatal(err)
	}
	if man.Config.Digest != w.ID || len(man.Layers) != 1 || man.Layers[0].Size != w.Size {
		t.Fatalf("manifest %+v, want config %s and one layer of %d bytes", man, w.ID, w.Size)
	}
	type entry struct {
		Name, Link string
		Mode       int64
		Uid, Gid   int
		Time       int64
	}
	var got []entry
	lr := tar.NewReader(bytes.NewReader(files["blobs/sha256/"+strings.TrimPrefix(man.Layers[0].Digest, "sha256:")]))
	for {
		h, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, entry{h.Name, h.Linkname, h.Mode, h.Uid, h.Gid, h.ModTime.Unix()})
	}
	want := []entry{
		{Name: "app/", Mode: 0o755},
		{Name: "app/data.txt", Mode: 0o644},
		{Name: "app/link", Link: "data.txt", Mode: 0o777},
		{Name: "tmp/", Mode: 0o1777},
		{Name: "usr/", Mode: 0o755},
		{Name: "usr/bin/", Mode: 0o755},
		{Name: "usr/bin/prog", Mode: 0o755},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("layer entries (-want +got):\n%s", d)
	}
}

func TestBadEntriesAreRefused(t *testing.T) {
	for _, tt := range []struct {
		name  string
		entry []Entry
		want  string
	}{
		{"absolute", []Entry{{Path: "/etc", Dir: true}}, "not relative and clean"},
		{"unclean", []Entry{{Path: "a/../b", Dir: true}}, "not relative and clean"},
		{"above", []Entry{{Path: "../b", Dir: true}}, "not relative and clean"},
		{"twice", []Entry{{Path: "a", Dir: true}, {Path: "a", Linkname: "b"}}, "given twice"},
		{"no source", []Entry{{Path: "a"}}, "has no source"},
		{"missing source", []Entry{{Path: "a", Source: "/nonexistent/file"}}, "no such file"},
		{"source a directory", []Entry{{Path: "a", Source: "/"}}, "not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := Image{Name: "x", Entries: tt.entry}.Write(&buf, t.TempDir())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}
