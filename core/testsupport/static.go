package testsupport

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Tags are the build tags of every build and test (scripts/env.sh).
const Tags = "sqlite_fts5 sqlite_omit_load_extension osusergo netgo"

var (
	staticMu    sync.Mutex
	staticBuilt = map[string]string{} // version -> binary, in this process
)

// StaticBinary is the static boxmaker binary of this checkout, built as
// scripts/build.sh builds it (cgo, static, stripped, Tags), with version
// "dev". It is built once per state of the sources: the first test process
// of a run builds it into a directory of the machine's temporary directory
// named for a hash of every file the build reads, under a lock, and the
// others (the packages of one `go test ./...` run side by side) wait for
// it and use the same file. Builds older than a day are removed.
func StaticBinary() (string, error) { return StaticBinaryVersion("dev") }

// StaticBinaryVersion is StaticBinary with version as `boxmaker version`
// says it (main.version), for a test that needs two binaries.
func StaticBinaryVersion(version string) (string, error) {
	staticMu.Lock()
	defer staticMu.Unlock()
	if exe, ok := staticBuilt[version]; ok {
		return exe, nil
	}
	exe, err := buildStatic(version)
	if err != nil {
		return "", err
	}
	staticBuilt[version] = exe
	return exe, nil
}

// ModuleRoot is the directory of the module's go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("go env GOMOD: not in a module")
	}
	return filepath.Dir(mod), nil
}

func buildStatic(version string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	ldflags := "-s -w -linkmode external -extldflags -static -X main.version=" + version + " -X main.commit=test"
	key, err := sourceKey(root, ldflags)
	if err != nil {
		return "", err
	}
	cache := filepath.Join(os.TempDir(), fmt.Sprintf("boxmaker-static-%d", os.Getuid()))
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(filepath.Join(cache, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("lock %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	dir := filepath.Join(cache, key)
	exe := filepath.Join(dir, "boxmaker")
	if _, err := os.Stat(exe); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // in use: not pruned
		return exe, nil
	}
	pruneStatic(cache, staticKeep)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp := exe + ".building"
	build := exec.Command("go", "build", "-tags", Tags, "-trimpath", "-ldflags", ldflags, "-o", tmp, ".")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build (static): %v\n%s", err, out)
	}
	if err := os.Rename(tmp, exe); err != nil {
		return "", err
	}
	return exe, nil
}

// sourceKey hashes what the build reads: the Go version, the flags, and
// every file of the module's own packages the main package depends on
// (Go, cgo, C and embedded files); other modules by path and version.
func sourceKey(root, ldflags string) (string, error) {
	list := exec.Command("go", "list", "-deps", "-tags", Tags, "-f",
		`{{if not .Standard}}{{if .Module}}{{.Module.Path}} {{.Module.Version}}{{end}}|{{.Dir}}|{{join .GoFiles ","}},{{join .CgoFiles ","}},{{join .CFiles ","}},{{join .HFiles ","}},{{join .EmbedFiles ","}}{{end}}`, ".")
	list.Dir = root
	list.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("go list -deps: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", runtime.Version(), Tags, ldflags)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		mod, rest, _ := strings.Cut(line, "|")
		dir, files, _ := strings.Cut(rest, "|")
		fmt.Fprintf(h, "%s\n", mod)
		if !strings.HasPrefix(mod, "boxmaker ") {
			continue // another module's version names its files
		}
		for _, name := range strings.Split(files, ",") {
			if name == "" {
				continue
			}
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s\n", dir, name)
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return "", err
			}
		}
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return "", err
		}
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// staticKeep is how long a static build no test run used is kept. Each
// is about 35 MB and every change of the source makes one: kept a day,
// a day of work filled this machine's disk (12 GB) and the next test
// run failed on "no space left on device". A run uses its build within
// minutes of making it, and a build found in use is touched again.
const staticKeep = 3 * time.Hour

// pruneStatic removes the builds not used for longer than age.
func pruneStatic(cache string, age time.Duration) {
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > age {
			os.RemoveAll(filepath.Join(cache, e.Name()))
		}
	}
}
