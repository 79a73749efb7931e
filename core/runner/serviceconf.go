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

import (
	"errors"
	"fmt"
	"os"
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
// conmon_env_vars (containers/common's default PATH when none is set).
// A variable the files already set there is left as they set it.
func serviceContainersConf(files []string, env []string) ([]byte, error) {
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
	return toml.Marshal(merged)
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
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
