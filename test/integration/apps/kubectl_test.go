package apps

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Every documented CloneSet and Advanced StatefulSet manifest applies unchanged.
func TestDocumentedManifestsApply(t *testing.T) {
	dir := examplesDir(t)
	var files []string
	for _, p := range []string{"cloneset-*.yaml", "advanced-statefulset*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(dir, p))
		files = append(files, m...)
	}
	if len(files) < 8 {
		t.Fatalf("found %d documented manifests in %s, want at least 8", len(files), dir)
	}
	c := framework.Get(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// Manifests that name no namespace go to a fresh one; the others to theirs.
			args := []string{"apply", "-f", f}
			if !strings.Contains(string(data), "namespace:") {
				args = append(args, "-n", c.CreateNamespace(t))
			}
			out := kubectl(t, args...)
			if !strings.Contains(out, "created") {
				t.Fatalf("kubectl apply printed %q, want ... created", out)
			}
			args[0] = "delete"
			t.Cleanup(func() { _, _, _ = c.Kubectl(t, args...) })
		})
	}
}

func TestKubectlGetPrintsOpenKruiseColumns(t *testing.T) {
	c := framework.Get(t)
	dir := examplesDir(t)
	ns := c.CreateNamespace(t)
	kubectl(t, "apply", "-n", ns, "-f", filepath.Join(dir, "cloneset-basic.yaml"))

	out := kubectl(t, "get", "clone", "-n", ns)
	if got, want := headerFields(out), []string{"NAME", "DESIRED", "UPDATED", "UPDATED_READY", "READY", "TOTAL", "AGE"}; !slices.Equal(got, want) {
		t.Fatalf("kubectl get clone header = %v, want %v\n%s", got, want, out)
	}
	if row := strings.Fields(strings.Split(out, "\n")[1]); len(row) < 2 || row[0] != "cs-demo" || row[1] != "3" {
		t.Fatalf("kubectl get clone: want cs-demo with DESIRED 3, got\n%s", out)
	}
	wide := kubectl(t, "get", "clonesets.apps.kruise.io", "-n", ns, "-o", "wide")
	if got := headerFields(wide); !slices.Equal(got[len(got)-3:], []string{"CONTAINERS", "IMAGES", "SELECTOR"}) {
		t.Fatalf("wide header = %v, want it to end with CONTAINERS IMAGES SELECTOR", got)
	}
	if !strings.Contains(wide, "nginx:alpine") {
		t.Fatalf("wide output lacks the image:\n%s", wide)
	}

	// Advanced StatefulSet, by both short names.
	sts := strings.ReplaceAll(readExample(t, "advanced-statefulset.yaml"), "namespace: default", "namespace: "+ns)
	if _, err := kubectlStdin(t, sts, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"asts", "statefulsets.apps.kruise.io"} {
		out := kubectl(t, "get", name, "-n", ns)
		if got, want := headerFields(out), []string{"NAME", "DESIRED", "CURRENT", "UPDATED", "READY", "AGE"}; !slices.Equal(got, want) {
			t.Fatalf("kubectl get %s header = %v, want %v", name, got, want)
		}
	}
	wide = kubectl(t, "get", "asts", "-n", ns, "-o", "wide")
	if got := headerFields(wide); !slices.Equal(got[len(got)-2:], []string{"CONTAINERS", "IMAGES"}) {
		t.Fatalf("asts wide header = %v, want it to end with CONTAINERS IMAGES", got)
	}
}

func readExample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examplesDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestKubectlScale(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	kubectl(t, "apply", "-n", ns, "-f", filepath.Join(examplesDir(t), "cloneset-basic.yaml"))
	kubectl(t, "scale", "-n", ns, "clonesets/cs-demo", "--replicas=5")
	cs, err := kruiseClient(t).AppsV1alpha1().CloneSets(ns).Get(context.Background(), "cs-demo", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if *cs.Spec.Replicas != 5 {
		t.Fatalf("spec.replicas after kubectl scale = %d, want 5", *cs.Spec.Replicas)
	}
	scale, err := kruiseClient(t).AppsV1beta1().CloneSets(ns).GetScale(context.Background(), "cs-demo", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if scale.Spec.Replicas != 5 || scale.Status.Selector != "app=cs" {
		t.Fatalf("scale = %+v, want spec.replicas 5 and selector app=cs", scale)
	}
	// Conditional scale with a wrong current size fails, as for Deployments.
	if _, _, err := c.Kubectl(t, "scale", "-n", ns, "clonesets/cs-demo", "--current-replicas=2", "--replicas=1"); err == nil {
		t.Fatal("kubectl scale --current-replicas=2 succeeded on a CloneSet of 5")
	}
}

func TestKubectlExplain(t *testing.T) {
	// The aggregator fetches an APIService's OpenAPI after the APIService turns
	// Available, so explain may need a few seconds on a fresh stack.
	c := framework.Get(t)
	var out string
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		var err error
		out, _, err = c.Kubectl(t, "explain", "cloneset.spec.updateStrategy")
		return err == nil, err
	})
	// The preferred version is v1beta1: type + rollingUpdate.
	for _, want := range []string{"rollingUpdate", "type", "OnDelete", "RollingUpdate"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl explain cloneset.spec.updateStrategy lacks %q:\n%s", want, out)
		}
	}
	out = kubectl(t, "explain", "cloneset.spec.updateStrategy.rollingUpdate")
	for _, want := range []string{"podUpdatePolicy", "partition", "maxUnavailable", "maxSurge"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl explain cloneset.spec.updateStrategy.rollingUpdate lacks %q:\n%s", want, out)
		}
	}
	// The documented v1alpha1 shape is flat.
	out = kubectl(t, "explain", "cloneset.spec.updateStrategy", "--api-version=apps.kruise.io/v1alpha1")
	for _, want := range []string{"partition", "maxUnavailable", "maxSurge", "InPlaceIfPossible"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl explain v1alpha1 cloneset.spec.updateStrategy lacks %q:\n%s", want, out)
		}
	}
	out = kubectl(t, "explain", "asts.spec.updateStrategy.rollingUpdate")
	if !strings.Contains(out, "podUpdatePolicy") {
		t.Errorf("kubectl explain asts rollingUpdate lacks podUpdatePolicy:\n%s", out)
	}
	// Containers inside the template are the real core/v1 schema, merged by name.
	out = kubectl(t, "explain", "cloneset.spec.template.spec.containers")
	if !strings.Contains(out, "imagePullPolicy") {
		t.Errorf("kubectl explain of the template's containers lacks core/v1 fields:\n%s", out)
	}
}

// `kubectl get clonesets -w` streams a change made by another client.
func TestKubectlWatch(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	kubectl(t, "apply", "-n", ns, "-f", filepath.Join(examplesDir(t), "cloneset-basic.yaml"))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "kubectl"), "--kubeconfig", c.Kubeconfig,
		"get", "clonesets", "-n", ns, "-w", "--output-watch-events", "-o", "custom-columns=EVENT:.type,NAME:.object.metadata.name,DESIRED:.object.spec.replicas")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()

	lines := make(chan string)
	go func() {
		defer close(lines)
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			lines <- s.Text()
		}
	}()
	waitLine := func(want ...string) {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("kubectl -w ended before printing %v", want)
				}
				if containsAll(l, want...) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("kubectl -w did not print %v in time", want)
			}
		}
	}
	waitLine("ADDED", "cs-demo", "3")
	if _, err := kruiseClient(t).AppsV1alpha1().CloneSets(ns).Patch(context.Background(), "cs-demo",
		types.MergePatchType, []byte(`{"spec":{"replicas":7}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitLine("MODIFIED", "cs-demo", "7")
}

func containsAll(s string, subs ...string) bool {
	fields := strings.Fields(s)
	for _, sub := range subs {
		if !slices.Contains(fields, sub) {
			return false
		}
	}
	return true
}
