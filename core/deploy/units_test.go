package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"boxmaker/core/role"
	"boxmaker/core/testsupport"
)

// writeUnits renders the units for a prefix of fake executables (verify
// checks that ExecStart= names one) and writes them to a directory.
func writeUnits(t *testing.T) (dir string, units []Unit) {
	t.Helper()
	root := t.TempDir()
	prefix := filepath.Join(root, "prefix")
	if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range append([]string{"boxmaker"}, role.Names(Services)...) {
		if err := os.WriteFile(filepath.Join(prefix, "bin", r), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	units, err := Units(Layout{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(root, "units")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, u := range units {
		if err := os.WriteFile(filepath.Join(dir, u.Name), []byte(u.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, units
}

func needSystemdAnalyze(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Fatal("systemd-analyze is needed (Debian's systemd package; scripts/setup.sh installs it)")
	}
}

// Every unit passes systemd-analyze verify with nothing to say: an
// unknown key or a value systemd cannot parse is only a warning there, so
// any output fails the test, not only the status.
func TestEveryUnitPassesSystemdAnalyzeVerify(t *testing.T) {
	needSystemdAnalyze(t)
	dir, units := writeUnits(t)
	for _, u := range units {
		out, err := exec.Command("systemd-analyze", "verify", filepath.Join(dir, u.Name)).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify %s: %v\n%s", u.Name, err, out)
		}
	}
}

// The check above must be able to fail: a unit with a bad value is
// reported.
func TestSystemdAnalyzeVerifyReportsABadUnit(t *testing.T) {
	needSystemdAnalyze(t)
	dir, units := writeUnits(t)
	bad := strings.Replace(units[0].Text, "Restart=on-failure", "Restart=sometimes", 1)
	p := filepath.Join(dir, "bad.service")
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("systemd-analyze", "verify", p).CombinedOutput()
	if !strings.Contains(string(out), "sometimes") {
		t.Fatalf("systemd-analyze verify said nothing of Restart=sometimes: %q", out)
	}
}

var exposureRE = regexp.MustCompile(`Overall exposure level for (\S+): ([0-9.]+)`)

// docScoreRE reads docs/deployment.md's table: | brokerd.service | 7.0 | ...
var docScoreRE = regexp.MustCompile(`(?m)^\| ` + "`" + `?([a-z]+\.service)` + "`" + `? \| ([0-9.]+) \|`)

// The scores docs/deployment.md records are the ones systemd-analyze
// security gives the units as written: a change to the hardening must
// change the doc.
func TestSecurityScoresAreTheOnesTheDocRecords(t *testing.T) {
	needSystemdAnalyze(t)
	doc, err := os.ReadFile("../../docs/deployment.md")
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]string{}
	for _, m := range docScoreRE.FindAllStringSubmatch(string(doc), -1) {
		recorded[m[1]] = m[2]
	}
	dir, _ := writeUnits(t)
	for _, u := range ServiceUnits() {
		out, err := exec.Command("systemd-analyze", "security", "--offline=yes", filepath.Join(dir, u)).CombinedOutput()
		m := exposureRE.FindStringSubmatch(string(out))
		if m == nil {
			t.Fatalf("systemd-analyze security %s: %v\n%s", u, err, out)
		}
		if _, err := strconv.ParseFloat(m[2], 64); err != nil {
			t.Fatal(err)
		}
		if recorded[u] != m[2] {
			t.Errorf("%s scores %s; docs/deployment.md records %q", u, m[2], recorded[u])
		}
	}
}

// hardeningKeys are the directives whose line must be explained by a
// comment in its paragraph.
var hardeningKeys = []string{
	"NoNewPrivileges", "ProtectSystem", "ReadWritePaths", "ProtectHome", "PrivateTmp", "PrivateDevices",
	"DevicePolicy", "ProtectKernelTunables", "ProtectKernelModules", "ProtectKernelLogs",
	"ProtectControlGroups", "ProtectClock", "ProtectHostname", "ProtectProc", "ProcSubset",
	"RestrictNamespaces", "SystemCallFilter", "SystemCallErrorNumber", "SystemCallArchitectures",
	"MemoryDenyWriteExecute", "LockPersonality", "RestrictRealtime", "RestrictSUIDSGID",
	"CapabilityBoundingSet", "AmbientCapabilities", "UMask", "RestrictAddressFamilies", "IPAddressDeny",
	"User", "KillMode", "LoadCredentialEncrypted", "PrivateMounts", "PrivateNetwork", "RuntimeDirectory",
}

// Every hardening line stands in a paragraph that starts with a comment
// saying why.
func TestEveryHardeningLineIsExplained(t *testing.T) {
	_, units := writeUnits(t)
	for _, u := range units {
		commented := false
		for i, line := range strings.Split(u.Text, "\n") {
			switch {
			case strings.TrimSpace(line) == "":
				commented = false
			case strings.HasPrefix(line, "#"):
				commented = true
			default:
				key, _, _ := strings.Cut(line, "=")
				for _, k := range hardeningKeys {
					if key == k && !commented {
						t.Errorf("%s:%d: %s has no comment above it", u.Name, i+1, line)
					}
				}
			}
		}
	}
}

// The target starts every service, each service is part of it, and each
// is ordered after brokerd (so brokerd stops last).
func TestTheTargetStartsEveryServiceAndBrokerdStopsLast(t *testing.T) {
	_, units := writeUnits(t)
	byName := map[string]string{}
	for _, u := range units {
		byName[u.Name] = u.Text
	}
	target := byName[Target]
	for _, s := range ServiceUnits() {
		if !regexp.MustCompile(`(?m)^Wants=.*\b` + regexp.QuoteMeta(s)).MatchString(target) {
			t.Errorf("%s does not want %s", Target, s)
		}
		text := byName[s]
		if !strings.Contains(text, "\nPartOf="+Target+"\n") {
			t.Errorf("%s is not PartOf=%s", s, Target)
		}
		testsupport.ContainsAll(t, s, text, "\nType=notify\n", "\nRestart=on-failure\n", "\nStartLimitBurst=", "\nStateDirectory=boxmaker\n", "\nUMask=0077\n", "\nNoNewPrivileges=yes\n")
		if s != "brokerd.service" && !regexp.MustCompile(`(?m)^After=.*\bbrokerd\.service\b`).MatchString(text) {
			t.Errorf("%s is not ordered after brokerd.service", s)
		}
	}
}
