package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestServiceSpecMatchesCommandLine: the OCI configuration the podman
// service makes from serviceSpec is the one `podman create` makes from
// the runner's command line (Args), but for the container's own name,
// ID and paths. The service decodes the spec without refusing unknown
// fields: a misspelt field would drop a lockdown option silently, and
// this is where it shows.
func TestServiceSpecMatchesCommandLine(t *testing.T) {
	d := resolvedTempDir(t)
	file := d + "/file.txt"
	writeTestFile(t, file, "a line of text\n")
	r := newTestRunner(t, nil)
	if why := r.ready(true); why != "" {
		t.Fatal(why)
	}
	svc := startBenchService(t, "runc")
	client := newServiceClient(svc.socket)
	for _, tc := range []Call{
		{ID: "spec-read", Tool: "read_file", Paths: []string{file}},
		{ID: "spec-write", Tool: "write_file", Paths: []string{file}, Content: []byte("x")},
		{ID: "spec-run", Tool: "run", Paths: []string{d}, Command: "ls"},
	} {
		t.Run(tc.Tool, func(t *testing.T) {
			mounts := directMounts(tc)
			cliName := r.ContainerName(tc.ID + "-cli")
			args := r.Args(tc, cliName, mounts)
			create := append([]string{"create"}, args[1:]...)
			cliID := strings.TrimSpace(string(podmanStdout(t, create...)))
			t.Cleanup(func() { exec.Command("podman", "rm", "-f", "-t", "0", cliID).Run() })
			podmanStdout(t, "init", cliID)

			svcName := r.ContainerName(tc.ID + "-svc")
			ctx := context.Background()
			svcID, err := client.create(ctx, r.serviceSpec(tc, svcName, mounts))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { client.remove(context.Background(), svcID, true) })
			if err := client.do(ctx, "POST", "/containers/"+svcID+"/init", nil, nil); err != nil {
				t.Fatal(err)
			}
			cli := ociConfig(t, cliID, cliName)
			viaService := ociConfig(t, svcID, svcName)
			if diff := cmp.Diff(cli, viaService); diff != "" {
				t.Errorf("the service's OCI configuration differs from podman create's (-cli +service):\n%s", diff)
			}
		})
	}
}

// ociConfig is the config.json Podman wrote for the container id, as
// JSON values, with its ID and name replaced by placeholders and what
// differs between any two containers (the container's own paths)
// dropped.
func ociConfig(t *testing.T, id, name string) map[string]any {
	t.Helper()
	path := strings.TrimSpace(string(podmanStdout(t, "inspect", "--format", "{{.OCIConfigPath}}", id)))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer(id, "ID", id[:12], "SHORTID", name, "NAME").Replace(string(data))
	var c map[string]any
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		t.Fatal(err)
	}
	// The root's overlay mount point is named after the layer, not the
	// container.
	delete(c["root"].(map[string]any), "path")
	annotations := c["annotations"].(map[string]any)
	delete(annotations, "io.kubernetes.cri-o.Created")
	// The service's container is removed by the runner, not by the
	// cleanup process (serviceClient.run).
	delete(annotations, "io.podman.annotations.autoremove")
	// Mounts in the order of their destinations: Podman lists the ones
	// it adds from a map.
	mounts := c["mounts"].([]any)
	slices.SortFunc(mounts, func(a, b any) int {
		return strings.Compare(a.(map[string]any)["destination"].(string), b.(map[string]any)["destination"].(string))
	})
	// The environment in any order: Podman makes it from a map.
	env := c["process"].(map[string]any)["env"].([]any)
	slices.SortFunc(env, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	return c
}

func podmanStdout(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := exec.Command("podman", args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("podman %s: %v: %s", strings.Join(args, " "), err, stderr)
	}
	return out
}
