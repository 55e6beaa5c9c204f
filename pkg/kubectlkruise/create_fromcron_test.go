package kubectlkruise

import (
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func advancedCronJob(version string, template map[string]interface{}) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": Group + "/" + version,
		"kind":       "AdvancedCronJob",
		"metadata":   map[string]interface{}{"name": "nightly", "namespace": testNS, "uid": "uid-acj"},
		"spec":       map[string]interface{}{"schedule": "0 2 * * *", "template": template},
	}}
}

func templateOf(labels, annotations map[string]interface{}, spec map[string]interface{}) map[string]interface{} {
	meta := map[string]interface{}{}
	if labels != nil {
		meta["labels"] = labels
	}
	if annotations != nil {
		meta["annotations"] = annotations
	}
	return map[string]interface{}{"metadata": meta, "spec": spec}
}

// A run made by hand from an AdvancedCronJob is the template's spec, labels and
// annotations, marked manual and owned (not controlled) by the AdvancedCronJob in
// v1alpha1, as OpenKruise's plugin makes it; a template of the other kind is refused
// with the command to use instead.
func TestRunFromAdvancedCronJob(t *testing.T) {
	jobSpec := map[string]interface{}{"backoffLimit": int64(2), "template": map[string]interface{}{
		"spec": map[string]interface{}{"containers": []interface{}{map[string]interface{}{"name": "main", "image": "busybox"}}, "restartPolicy": "Never"}}}
	owner := []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1alpha1", Kind: "AdvancedCronJob", Name: "nightly", UID: "uid-acj"}}
	for _, tc := range []struct {
		name            string
		acj             *unstructured.Unstructured
		kind            string
		wantAPIVersion  string
		wantLabels      map[string]string
		wantAnnotations map[string]string
		wantErr         string
	}{
		{
			name: "job from jobTemplate, template metadata copied",
			acj: advancedCronJob("v1beta1", map[string]interface{}{"jobTemplate": templateOf(
				map[string]interface{}{"app": "nightly"}, map[string]interface{}{"team": "data"}, jobSpec)}),
			kind: "Job", wantAPIVersion: "batch/v1",
			wantLabels:      map[string]string{"app": "nightly"},
			wantAnnotations: map[string]string{instantiateAnnotation: "manual", "team": "data"},
		},
		{
			name: "job from a template without metadata",
			acj:  advancedCronJob("v1alpha1", map[string]interface{}{"jobTemplate": templateOf(nil, nil, jobSpec)}),
			kind: "Job", wantAPIVersion: "batch/v1",
			wantAnnotations: map[string]string{instantiateAnnotation: "manual"},
		},
		{
			name: "broadcastjob keeps the AdvancedCronJob's version",
			acj:  advancedCronJob("v1alpha1", map[string]interface{}{"broadcastJobTemplate": templateOf(nil, nil, jobSpec)}),
			kind: "BroadcastJob", wantAPIVersion: "apps.kruise.io/v1alpha1",
			wantAnnotations: map[string]string{instantiateAnnotation: "manual"},
		},
		{
			name:    "job from a broadcastJobTemplate",
			acj:     advancedCronJob("v1beta1", map[string]interface{}{"broadcastJobTemplate": templateOf(nil, nil, jobSpec)}),
			kind:    "Job",
			wantErr: `advancedcronjob/nightly has no jobTemplate (its runs are BroadcastJob): use "kubectl kruise create broadcastjob"`,
		},
		{
			name:    "broadcastjob from an imageListPullJobTemplate",
			acj:     advancedCronJob("v1beta1", map[string]interface{}{"imageListPullJobTemplate": map[string]interface{}{}}),
			kind:    "BroadcastJob",
			wantErr: `has no broadcastJobTemplate (its runs are ImageListPullJob)`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := runFromAdvancedCronJob(tc.acj, tc.kind, "manual-1")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if run.GetAPIVersion() != tc.wantAPIVersion || run.GetKind() != tc.kind || run.GetName() != "manual-1" || run.GetNamespace() != testNS {
				t.Errorf("run is %s %s %s/%s", run.GetAPIVersion(), run.GetKind(), run.GetNamespace(), run.GetName())
			}
			if got := run.GetLabels(); !reflect.DeepEqual(got, tc.wantLabels) && (len(got) != 0 || len(tc.wantLabels) != 0) {
				t.Errorf("labels = %v, want %v", got, tc.wantLabels)
			}
			if got := run.GetAnnotations(); !reflect.DeepEqual(got, tc.wantAnnotations) {
				t.Errorf("annotations = %v, want %v", got, tc.wantAnnotations)
			}
			if got := run.GetOwnerReferences(); !reflect.DeepEqual(got, owner) {
				t.Errorf("ownerReferences = %+v, want %+v", got, owner)
			}
			if got := run.Object["spec"]; !reflect.DeepEqual(got, jobSpec) {
				t.Errorf("spec = %v, want the template's", got)
			}
		})
	}
}

func TestBroadcastJobFromImage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		command []string
		want    interface{}
	}{
		{name: "no command"},
		{name: "command", command: []string{"sh", "-c", "date"}, want: []interface{}{"sh", "-c", "date"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bcj := broadcastJobFromImage(testNS, "b", "busybox", tc.command)
			cs, _, _ := unstructured.NestedSlice(bcj.Object, "spec", "template", "spec", "containers")
			if len(cs) != 1 {
				t.Fatalf("containers = %v", cs)
			}
			c := cs[0].(map[string]interface{})
			if c["name"] != "b" || c["image"] != "busybox" || !reflect.DeepEqual(c["command"], tc.want) {
				t.Errorf("container = %v", c)
			}
			if p, _, _ := unstructured.NestedString(bcj.Object, "spec", "template", "spec", "restartPolicy"); p != "Never" {
				t.Errorf("restartPolicy = %q", p)
			}
		})
	}
}
