// Package ociarchive writes a one-layer OCI image as an oci-archive, the
// form `podman load` takes, reproducibly: the same files give the same
// bytes, so the same image ID and the same manifest digest, on any
// machine and at any time.
//
// The archive is a tar of an OCI image layout:
//
//	oci-layout                      {"imageLayoutVersion":"1.0.0"}
//	blobs/sha256/<layer digest>     the layer, an uncompressed tar
//	blobs/sha256/<config digest>    the image config (its digest is the image ID)
//	blobs/sha256/<manifest digest>  the manifest (its digest is what name@sha256: pins)
//	index.json                      the manifest, named by org.opencontainers.image.ref.name
//
// Every entry of the layer and of the archive has the time 0 (1970),
// uid and gid 0, no user or group name, and a mode of 0755 or 0644
// (0755 when the source had any execute bit; directories 0755, /tmp
// 01777): nothing of the machine that built it but the files' bytes.
package ociarchive

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"
)

// epoch is every entry's time, and the image's.
var epoch = time.Unix(0, 0).UTC()

// Entry is one entry of the layer.
type Entry struct {
	Path     string // in the image: relative, clean, no leading "/" (dirs too)
	Dir      bool
	Linkname string // a symbolic link to this
	Source   string // a regular file: its bytes are read from this host path
	Exec     bool   // a regular file: mode 0755 (else 0644)
	Sticky   bool   // a directory: mode 01777
}

// Config is what the image config says beyond its layer.
type Config struct {
	Env        []string
	Cmd        []string
	WorkingDir string
	User       string
	Labels     map[string]string
	CreatedBy  string // the history's one line
}

// Image is a one-layer image to write.
type Image struct {
	Name    string // the ref name index.json gives it, e.g. localhost/x:latest
	Entries []Entry
	Config  Config
}

// Written says what was written.
type Written struct {
	ID       string // sha256:<config digest>, podman's image ID
	Manifest string // sha256:<manifest digest>, what name@sha256: pins
	Size     int64  // the layer's size
}

// Write writes the archive to w. The layer is written to a temporary
// file in tmpDir first (its digest names it in the archive, before its
// bytes), so an image of any size takes no memory.
func (img Image) Write(w io.Writer, tmpDir string) (Written, error) {
	entries, err := sorted(img.Entries)
	if err != nil {
		return Written{}, err
	}
	layerFile, err := os.CreateTemp(tmpDir, "ociarchive-layer-*.tar")
	if err != nil {
		return Written{}, err
	}
	defer os.Remove(layerFile.Name())
	defer layerFile.Close()
	sum := sha256.New()
	size, err := writeLayer(io.MultiWriter(layerFile, sum), entries)
	if err != nil {
		return Written{}, err
	}
	layerDigest := digestOf(sum)
	cfg, err := json.Marshal(map[string]any{
		"created":      epoch.Format(time.RFC3339),
		"architecture": "amd64",
		"os":           "linux",
		"config": map[string]any{
			"Env":        img.Config.Env,
			"Cmd":        img.Config.Cmd,
			"WorkingDir": img.Config.WorkingDir,
			"User":       img.Config.User,
			"Labels":     img.Config.Labels,
		},
		"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{layerDigest}},
		"history": []map[string]any{{"created": epoch.Format(time.RFC3339), "created_by": img.Config.CreatedBy}},
	})
	if err != nil {
		return Written{}, err
	}
	const (
		layerType    = "application/vnd.oci.image.layer.v1.tar"
		configType   = "application/vnd.oci.image.config.v1+json"
		manifestType = "application/vnd.oci.image.manifest.v1+json"
	)
	man, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     manifestType,
		"config":        map[string]any{"mediaType": configType, "digest": digestBytes(cfg), "size": len(cfg)},
		"layers":        []any{map[string]any{"mediaType": layerType, "digest": layerDigest, "size": size}},
	})
	if err != nil {
		return Written{}, err
	}
	index, err := json.Marshal(map[string]any{"schemaVersion": 2, "manifests": []any{map[string]any{
		"mediaType":   manifestType,
		"digest":      digestBytes(man),
		"size":        len(man),
		"annotations": map[string]string{"org.opencontainers.image.ref.name": img.Name},
	}}})
	if err != nil {
		return Written{}, err
	}

	tw := tar.NewWriter(w)
	header := func(name string, size int64) *tar.Header {
		return &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: size, ModTime: epoch, Format: tar.FormatPAX}
	}
	put := func(name string, data []byte) error {
		if err := tw.WriteHeader(header(name, int64(len(data)))); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	blob := func(digest string) string { return "blobs/sha256/" + strings.TrimPrefix(digest, "sha256:") }
	for _, d := range []string{"blobs/", "blobs/sha256/"} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return Written{}, err
		}
	}
	if err := put("oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)); err != nil {
		return Written{}, err
	}
	if _, err := layerFile.Seek(0, io.SeekStart); err != nil {
		return Written{}, err
	}
	if err := tw.WriteHeader(header(blob(layerDigest), size)); err != nil {
		return Written{}, err
	}
	if n, err := io.Copy(tw, layerFile); err != nil || n != size {
		return Written{}, fmt.Errorf("copying the layer into the archive: %d of %d bytes: %v", n, size, err)
	}
	for _, b := range [][]byte{cfg, man} {
		if err := put(blob(digestBytes(b)), b); err != nil {
			return Written{}, err
		}
	}
	if err := put("index.json", index); err != nil {
		return Written{}, err
	}
	if err := tw.Close(); err != nil {
		return Written{}, err
	}
	return Written{ID: digestBytes(cfg), Manifest: digestBytes(man), Size: size}, nil
}

// sorted checks the entries and puts them in path order, each directory
// before what it holds; a path given twice is an error.
func sorted(in []Entry) ([]Entry, error) {
	out := append([]Entry(nil), in...)
	seen := map[string]bool{}
	for _, e := range out {
		switch {
		case e.Path == "" || strings.HasPrefix(e.Path, "/") || path.Clean(e.Path) != e.Path || e.Path == "." || strings.HasPrefix(e.Path, "../"):
			return nil, fmt.Errorf("image path %q is not relative and clean", e.Path)
		case seen[e.Path]:
			return nil, fmt.Errorf("image path %q is given twice", e.Path)
		case !e.Dir && e.Linkname == "" && e.Source == "":
			return nil, fmt.Errorf("image path %q has no source", e.Path)
		}
		seen[e.Path] = true
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func writeLayer(w io.Writer, entries []Entry) (int64, error) {
	cw := &countingWriter{w: w}
	tw := tar.NewWriter(cw)
	for _, e := range entries {
		h := &tar.Header{Name: e.Path, ModTime: epoch, Format: tar.FormatPAX}
		switch {
		case e.Dir:
			h.Typeflag, h.Name, h.Mode = tar.TypeDir, e.Path+"/", 0o755
			if e.Sticky {
				h.Mode = 0o1777
			}
		case e.Linkname != "":
			h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, e.Linkname, 0o777
		default:
			h.Typeflag, h.Mode = tar.TypeReg, 0o644
			if e.Exec {
				h.Mode = 0o755
			}
		}
		if h.Typeflag != tar.TypeReg {
			if err := tw.WriteHeader(h); err != nil {
				return 0, err
			}
			continue
		}
		if err := copyFile(tw, h, e.Source); err != nil {
			return 0, fmt.Errorf("%s (for /%s): %w", e.Source, e.Path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return 0, err
	}
	return cw.n, nil
}

// copyFile writes h and the file's bytes, checking that the file did not
// change size between the two.
func copyFile(tw *tar.Writer, h *tar.Header, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("not a regular file")
	}
	h.Size = fi.Size()
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	if n, err := io.Copy(tw, f); err != nil || n != h.Size {
		return fmt.Errorf("read %d of %d bytes: %v", n, h.Size, err)
	}
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func digestOf(h hash.Hash) string { return "sha256:" + hex.EncodeToString(h.Sum(nil)) }

func digestBytes(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}
