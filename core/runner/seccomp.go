package runner

// The tools' seccomp profile: Podman's default profile, with the system
// calls that can make a set-user-ID or set-group-ID file allowed only
// when the mode they are given has neither bit. A tool runs as an
// unprivileged uid whose files belong to the owner (docs/runner.md, "Who
// the tool runs as"); without this filter it could still chmod u+s a file
// of its own and leave the owner a program that runs as the owner for
// anyone who starts it. Device nodes need CAP_MKNOD, which no tool has.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"boxmaker/core/atomicfile"
	"boxmaker/core/conf"
)

// The mode bits the filter keeps from files, and the open flags that make
// a file.
const (
	modeSetUID = 0o4000
	modeSetGID = 0o2000
	oCreat     = 0o100      // O_CREAT
	oTmpfile   = 0o20000000 // __O_TMPFILE, which O_TMPFILE includes
)

// setIDFiltered are the calls the profile allows on conditions only. The
// value is the index of the mode argument; open and openat also have
// their flags at flagArg.
var setIDFiltered = map[string]int{
	"chmod": 1, "fchmod": 1, "fchmodat": 2, "creat": 1,
	"mknod": 1, "mknodat": 2, "open": 2, "openat": 3,
}

var flagArg = map[string]int{"open": 1, "openat": 2}

// setIDRefused are calls the profile does not allow at all: openat2 takes
// its mode in a structure a filter cannot read (the C library falls back
// to openat on ENOSYS), fchmodat2 is newer than the libseccomp Podman
// links here, and io_uring can open and chmod past any filter.
var setIDRefused = []string{"openat2", "fchmodat2", "io_uring_setup", "io_uring_enter", "io_uring_register"}

type seccompArg struct {
	Index    int    `json:"index"`
	Value    uint64 `json:"value"`
	ValueTwo uint64 `json:"valueTwo"`
	Op       string `json:"op"`
}

type seccompRule struct {
	Names    []string     `json:"names"`
	Action   string       `json:"action"`
	ErrnoRet *int         `json:"errnoRet,omitempty"`
	Args     []seccompArg `json:"args"`
}

// masked is an argument test: (arg & mask) == want.
func masked(index int, mask, want uint64) seccompArg {
	return seccompArg{Index: index, Value: mask, ValueTwo: want, Op: "SCMP_CMP_MASKED_EQ"}
}

// setIDRules are the conditional rules: allowed when the mode has no
// set-id bit (or, for open and openat, when nothing is created), EPERM
// when it has one.
func setIDRules() []seccompRule {
	eperm := 1
	var rules []seccompRule
	for _, name := range []string{"chmod", "fchmod", "fchmodat", "creat", "mknod", "mknodat", "open", "openat"} {
		mode := setIDFiltered[name]
		rules = append(rules, seccompRule{Names: []string{name}, Action: "SCMP_ACT_ALLOW",
			Args: []seccompArg{masked(mode, modeSetUID|modeSetGID, 0)}})
		fl, hasFlags := flagArg[name]
		if hasFlags {
			// Without O_CREAT or O_TMPFILE the mode argument is whatever
			// the register held: it means nothing.
			rules = append(rules, seccompRule{Names: []string{name}, Action: "SCMP_ACT_ALLOW",
				Args: []seccompArg{masked(fl, oCreat|oTmpfile, 0)}})
		}
		for _, bit := range []uint64{modeSetUID, modeSetGID} {
			if !hasFlags {
				rules = append(rules, seccompRule{Names: []string{name}, Action: "SCMP_ACT_ERRNO", ErrnoRet: &eperm,
					Args: []seccompArg{masked(mode, bit, bit)}})
				continue
			}
			for _, make := range []uint64{oCreat, oTmpfile} {
				rules = append(rules, seccompRule{Names: []string{name}, Action: "SCMP_ACT_ERRNO", ErrnoRet: &eperm,
					Args: []seccompArg{masked(fl, make, make), masked(mode, bit, bit)}})
			}
		}
	}
	return rules
}

// SeccompProfile derives the tools' profile from base (Podman's default
// profile, as JSON): the filtered and refused calls are taken out of
// every rule that allows them, and the conditional rules are added.
// Whatever else the base says stays as it is.
func SeccompProfile(base []byte) ([]byte, error) {
	var prof map[string]json.RawMessage
	if err := json.Unmarshal(base, &prof); err != nil {
		return nil, fmt.Errorf("not a seccomp profile: %v", err)
	}
	var rules []map[string]json.RawMessage
	if err := json.Unmarshal(prof["syscalls"], &rules); err != nil || len(rules) == 0 {
		return nil, fmt.Errorf("not a seccomp profile: it has no syscalls list")
	}
	var action string
	if err := json.Unmarshal(prof["defaultAction"], &action); err != nil || action == "SCMP_ACT_ALLOW" {
		return nil, fmt.Errorf("the profile's defaultAction is %q: a profile that allows what it does not name cannot be narrowed", action)
	}
	drop := map[string]bool{}
	for n := range setIDFiltered {
		drop[n] = true
	}
	for _, n := range setIDRefused {
		drop[n] = true
	}
	var out []any
	for _, r := range rules {
		var names []string
		if err := json.Unmarshal(r["names"], &names); err != nil {
			return nil, fmt.Errorf("not a seccomp profile: a rule's names: %v", err)
		}
		kept := names[:0:0]
		for _, n := range names {
			if !drop[n] {
				kept = append(kept, n)
			}
		}
		if len(kept) == 0 {
			continue
		}
		r["names"], _ = json.Marshal(kept)
		out = append(out, r)
	}
	for _, r := range setIDRules() {
		out = append(out, r)
	}
	prof["syscalls"], _ = json.Marshal(out)
	return json.MarshalIndent(prof, "", "\t")
}

// readSeccompProfile reads the base profile (empty:
// conf.DefaultSeccompBase) and derives the tools' profile from it.
func readSeccompProfile(basePath string) ([]byte, error) {
	if basePath == "" {
		basePath = conf.DefaultSeccompBase
	}
	base, err := os.ReadFile(basePath)
	if err != nil {
		return nil, fmt.Errorf("seccomp_base: cannot read the seccomp profile the tools' is made from: %v", err)
	}
	prof, err := SeccompProfile(base)
	if err != nil {
		return nil, fmt.Errorf("seccomp_base: %s: %v", basePath, err)
	}
	return prof, nil
}

// writeSeccompProfile writes the tools' profile at path, 0600.
func writeSeccompProfile(prof []byte, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot write the tools' seccomp profile: %v", err)
	}
	if err := atomicfile.WriteFile(path, prof, 0o600); err != nil {
		return fmt.Errorf("cannot write the tools' seccomp profile: %v", err)
	}
	return nil
}
