package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// A client dry run prints the object with the annotation the patch would set, and
// writes nothing; a real restart sends exactly that annotation.
func TestRestartStampsTemplate(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{"template": map[string]interface{}{}}, nil)
	dyn := newDynamic(obj.DeepCopy())
	tg := targetOf(t, obj, "clonesets")
	p, err := cmdutil.PrintFlagsWithDryRunStrategy(newYAMLFlags(), cmdutil.DryRunClient).ToPrinter()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := restart(context.Background(), dyn, tg, now, cmdutil.DryRunClient, p, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), restartedAtAnnotation+`: "2026-01-02T03:04:05Z"`) {
		t.Errorf("client dry run output lacks the annotation:\n%s", out.String())
	}
	if n := len(dyn.Actions()); n != 0 {
		t.Errorf("client dry run sent %d requests", n)
	}
	if _, found, _ := nestedString(tg.Object, "spec", "template", "metadata", "annotations", restartedAtAnnotation); found {
		t.Error("client dry run changed the resolved object")
	}

	out.Reset()
	if err := restart(context.Background(), dyn, tg, now, cmdutil.DryRunNone, namePrinter(t, "restarted"), &out); err != nil {
		t.Fatal(err)
	}
	got, err := dyn.Resource(tg.GVR).Namespace(testNS).Get(context.Background(), "w", metav1GetOptions())
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := nestedString(got, "spec", "template", "metadata", "annotations", restartedAtAnnotation); v != "2026-01-02T03:04:05Z" {
		t.Errorf("restartedAt = %q", v)
	}
	if out.String() != "cloneset.apps.kruise.io/w restarted\n" {
		t.Errorf("output %q", out.String())
	}
}
