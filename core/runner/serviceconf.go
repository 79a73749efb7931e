package runner

// The containers.conf brokerd's podman service reads (CONTAINERS_CONF):
// the machine's own, as Podman would read it, with Go's collector held
// back in the short-lived Go programs the service has conmon start for
// every call (D1121).
//
// Podman 4.3 hands conmon, for every container, an exit command that is
// a whole podman process (`podman container cleanup`), and conmon runs
// the OCI runtime's `create`, itself a Go program. Both live for tens of
// milliseconds, most of it their start, where the collector ran one or
// two cycles over the 6 MB Podman's package init allocates
// (GODEBUG=inittrace=1). conmon's environment is not the service's: it
// gets containers.conf's [engine] conmon_env_vars (and CONTAINERS_CONF),
// and hands them on to both. So the service reads a containers.conf of
// its own, the machine's with GOGC=off and a memory limit added there.
//
// Its conmon_path is brokerd's own conmon (D1180): a script in the
// service's root-only directory that runs the machine's conmon, the one
// Podman would have found, with every argument Podman gives it but the
// exit command. The exit command, a whole podman process per call, is
// what the service's own removal of the container does anyway (its
// clean-up: the runtime's delete, the unmounts); the runner then learns
// the container's status by asking for its state (serviceClient.exited),
// since Podman 4.3's wait answers only once an exit command has run.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// serviceConmonEnv is what conmon hands the runtime's create and its exit
// command: no collection unless the heap reaches 64 MiB, as every
// boxmaker process starts (core/startgc, D363).
var serviceConmonEnv = []string{"GOGC=off", "GOMEMLIMIT=64MiB"}

// serviceOwnEnv is the service's own: a long-lived process that
// allocates for every request collects less often, within a limit.
var serviceOwnEnv = []string{"GOGC=400", "GOMEMLIMIT=256MiB"}

// defaultConmonPath is containers/common's default conmon_env_vars, which
// a containers.conf that sets none keeps.
const defaultConmonPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// machineContainersConfs are the files Podman 4.3 (containers/common
// 0.50, systemConfigs) reads its containers.conf from, in its order, for
// root: the one named (CONTAINERS_CONF) alone; otherwise the
// distribution's, the machine's, and the machine's drop-ins (*.conf, by
// name), those that exist. etc is /etc, share /usr/share (tests name
// others).
func machineContainersConfs(named, etc, share string) ([]string, error) {
	if named != "" {
		return []string{named}, nil
	}
	var files []string
	for _, f := range []string{filepath.Join(share, "containers", "containers.conf"), filepath.Join(etc, "containers", "containers.conf")} {
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	entries, err := os.ReadDir(filepath.Join(etc, "containers", "containers.conf.d"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries { // ReadDir sorts by name
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".conf") {
			files = append(files, filepath.Join(etc, "containers", "containers.conf.d", e.Name()))
		}
	}
	return files, nil
}

// serviceContainersConf is the containers.conf for the service: the
// files merged as Podman merges them (a later file's keys over an
// earlier's, tables key by key), with env added to [engine]
// conmon_env_vars (containers/common's default PATH when none is set),
// and [engine] conmon_path the one program conmon when it is not empty.
// A variable the files already set there is left as they set it.
func serviceContainersConf(files []string, env []string, conmon string) ([]byte, error) {
	merged, err := mergedContainersConf(files)
	if err != nil {
		return nil, err
	}
	engine, ok := merged["engine"].(map[string]any)
	if !ok {
		if _, there := merged["engine"]; there {
			return nil, errors.New("containers.conf: engine is not a table")
		}
		engine = map[string]any{}
		merged["engine"] = engine
	}
	vars := []any{defaultConmonPath}
	if v, there := engine["conmon_env_vars"]; there {
		if vars, ok = v.([]any); !ok {
			return nil, errors.New("containers.conf: engine.conmon_env_vars is not an array")
		}
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(vars, func(v any) bool { s, _ := v.(string); return strings.HasPrefix(s, name+"=") }) {
			vars = append(vars, kv)
		}
	}
	engine["conmon_env_vars"] = vars
	if conmon != "" {
		engine["conmon_path"] = []any{conmon}
	}
	return toml.Marshal(merged)
}

// defaultConmonPaths are containers/common 0.50's default conmon_path:
// where Podman 4.3 looks for conmon when containers.conf names none.
var defaultConmonPaths = []string{
	"/usr/libexec/podman/conmon",
	"/usr/local/libexec/podman/conmon",
	"/usr/local/lib/podman/conmon",
	"/usr/bin/conmon",
	"/usr/sbin/conmon",
	"/usr/local/bin/conmon",
	"/usr/local/sbin/conmon",
	"/run/current-system/sw/bin/conmon",
}

// machineConmon is the conmon Podman 4.3 runs with the containers.conf
// files given: the first of their conmon_path (else the defaults) that
// exists and is no directory, else conmon in PATH, as containers/common
// finds it.
func machineConmon(files []string) (string, error) {
	merged, err := mergedContainersConf(files)
	if err != nil {
		return "", err
	}
	paths := defaultConmonPaths
	if engine, ok := merged["engine"].(map[string]any); ok {
		if v, there := engine["conmon_path"]; there {
			list, ok := v.([]any)
			if !ok {
				return "", errors.New("containers.conf: engine.conmon_path is not an array")
			}
			paths = nil
			for _, p := range list {
				s, ok := p.(string)
				if !ok {
					return "", errors.New("containers.conf: engine.conmon_path holds something that is not a path")
				}
				paths = append(paths, s)
			}
		}
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && filepath.IsAbs(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("conmon")
	if err != nil {
		return "", fmt.Errorf("no conmon: none of %q, and none in PATH", paths)
	}
	return filepath.Abs(p)
}

// serviceConmonScript is brokerd's conmon for the service: the
// machine's, given every argument but --exit-command, its
// --exit-command-arg and --exit-delay (each with its value, or joined to
// it by "="), in order, as they came.
func serviceConmonScript(conmon string) ([]byte, error) {
	if !filepath.IsAbs(conmon) || strings.ContainsAny(conmon, "'\n\x00") {
		return nil, fmt.Errorf("conmon's path %q is not one brokerd's conmon can name", conmon)
	}
	return []byte(`#!/bin/sh
# brokerd's conmon for its podman service (docs/decisions.md, D1180): the
# machine's conmon without the exit command; the service cleans up.
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	--exit-command | --exit-command-arg | --exit-delay)
		if [ "$n" -gt 0 ]; then
			shift
			n=$((n - 1))
		fi
		;;
	--exit-command=* | --exit-command-arg=* | --exit-delay=*) ;;
	*) set -- "$@" "$a" ;;
	esac
done
exec '` + conmon + `' "$@"
`), nil
}

// writeServiceConmon writes brokerd's conmon for the machine's conmon
// as path (in the service's own root-only directory), 0700, whole or
// not at all.
func writeServiceConmon(path, conmon string) error {
	script, err := serviceConmonScript(conmon)
	if err != nil {
		return err
	}
	return writeServiceFile(path, script, 0o700)
}

// mergedContainersConf is files merged as Podman merges them.
func mergedContainersConf(files []string) (map[string]any, error) {
	merged := map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		mergeTables(merged, m)
	}
	return merged, nil
}

// podmanCgroupManager is the cgroup manager Podman 4.3 uses as root with
// the containers.conf files given: their [engine] cgroup_manager, else
// containers/common's default, "systemd" when process 1 (comm, read
// from init) is systemd and "cgroupfs" otherwise.
func podmanCgroupManager(files []string, init string) (string, error) {
	merged, err := mergedContainersConf(files)
	if err != nil {
		return "", err
	}
	if engine, ok := merged["engine"].(map[string]any); ok {
		if m, ok := engine["cgroup_manager"].(string); ok && m != "" {
			return m, nil
		}
	}
	if comm, err := os.ReadFile(init); err == nil && strings.TrimSpace(string(comm)) == "systemd" {
		return "systemd", nil
	}
	return "cgroupfs", nil
}

// mergeTables puts src's keys over dst's, merging the tables both have.
func mergeTables(dst, src map[string]any) {
	for k, v := range src {
		sub, isTable := v.(map[string]any)
		have, hasTable := dst[k].(map[string]any)
		if isTable && hasTable {
			mergeTables(have, sub)
			continue
		}
		dst[k] = v
	}
}

// writeServiceConf writes the service's containers.conf as path (in the
// service's own root-only directory), whole or not at all.
func writeServiceConf(path string, data []byte) error {
	return writeServiceFile(path, data, 0o600)
}

// writeServiceFile writes data as path with mode, whole or not at all:
// a new file, renamed over path.
func writeServiceFile(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
