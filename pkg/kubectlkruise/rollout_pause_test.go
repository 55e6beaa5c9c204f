package kubectlkruise

import (
	"bytes"
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/printers"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func TestPauseAndResumeWriteEachKindsField(t *testing.T) {
	cases := []struct {
		version, kind, resource string
		path                    []string
	}{
		{"v1beta1", "CloneSet", "clonesets", []string{"spec", "updateStrategy", "rollingUpdate", "paused"}},
		{"v1beta1", "StatefulSet", "statefulsets", []string{"spec", "updateStrategy", "rollingUpdate", "paused"}},
		{"v1beta1", "DaemonSet", "daemonsets", []string{"spec", "updateStrategy", "rollingUpdate", "paused"}},
	}
	for _, tc := range cases {
		t.Run(tc.version+"/"+tc.kind, func(t *testing.T) {
			obj := workload(tc.version, tc.kind, map[string]interface{}{}, nil)
			dyn := newDynamic(obj.DeepCopy())
			tg := targetOf(t, obj, tc.resource)
			var out bytes.Buffer
			toPrinter := func(op string) (printers.ResourcePrinter, error) { return namePrinter(t, op), nil }

			if err := setPaused(context.Background(), dyn, tg, true, toPrinter, &out); err != nil {
				t.Fatal(err)
			}
			stored, err := dyn.Resource(tg.GVR).Namespace(testNS).Get(context.Background(), "w", metav1GetOptions())
			if err != nil {
				t.Fatal(err)
			}
			if v, _, _ := unstructured.NestedBool(stored.Object, tc.path...); !v {
				t.Fatalf("paused not set at %v: %v", tc.path, stored.Object["spec"])
			}
			tg.Object = stored
			if err := setPaused(context.Background(), dyn, tg, true, toPrinter, &out); err != nil {
				t.Fatal(err)
			}
			if err := setPaused(context.Background(), dyn, tg, false, toPrinter, &out); err != nil {
				t.Fatal(err)
			}
			stored, _ = dyn.Resource(tg.GVR).Namespace(testNS).Get(context.Background(), "w", metav1GetOptions())
			if v, _, _ := unstructured.NestedBool(stored.Object, tc.path...); v {
				t.Fatalf("still paused after resume")
			}
			noun := map[string]string{"CloneSet": "cloneset", "StatefulSet": "statefulset", "DaemonSet": "daemonset"}[tc.kind]
			want := noun + ".apps.kruise.io/w paused\n" + noun + ".apps.kruise.io/w already paused\n" + noun + ".apps.kruise.io/w resumed\n"
			if out.String() != want {
				t.Errorf("output %q, want %q", out.String(), want)
			}
			patches := 0
			for _, a := range dyn.Actions() {
				if a.GetVerb() == "patch" {
					patches++
				}
			}
			if patches != 2 {
				t.Errorf("%d patches, want 2 (already paused writes nothing)", patches)
			}
		})
	}
}

func TestRestartSetsTemplateAnnotation(t *testing.T) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{"template": map[string]interface{}{}}, nil)
	dyn := newDynamic(obj.DeepCopy())
	tg := targetOf(t, obj, "clonesets")
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var out bytes.Buffer
	if err := restart(context.Background(), dyn, tg, now, cmdutil.DryRunNone, namePrinter(t, "restarted"), &out); err != nil {
		t.Fatal(err)
	}
	stored, err := dyn.Resource(tg.GVR).Namespace(testNS).Get(context.Background(), "w", metav1GetOptions())
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := unstructured.NestedString(stored.Object, "spec", "template", "metadata", "annotations", restartedAtAnnotation)
	if got != "2026-01-02T03:04:05Z" || out.String() != "cloneset.apps.kruise.io/w restarted\n" {
		t.Errorf("annotation %q, output %q", got, out.String())
	}
}
