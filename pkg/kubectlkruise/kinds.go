package kubectlkruise

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Group is the API group of the workloads the plugin handles.
const Group = "apps.kruise.io"

// workloadKind describes where one Kruise workload keeps the fields the commands read
// and write. Paths depend on the served version because v1alpha1 and v1beta1 CloneSets
// differ (v1alpha1 keeps paused and partition directly under updateStrategy).
type workloadKind struct {
	// noun is how kubectl-style messages name the kind ("cloneset").
	noun string
	// pausedPath and partitionPath return the field paths in the given version.
	pausedPath    func(version string) []string
	partitionPath func(version string) []string
	// daemon kinds have no spec.replicas: their desired count is the scheduled nodes.
	daemon bool
}

func rollingUpdatePath(field string) func(string) []string {
	return func(string) []string { return []string{"spec", "updateStrategy", "rollingUpdate", field} }
}

func cloneSetPath(field string) func(string) []string {
	return func(version string) []string {
		if version == "v1alpha1" {
			return []string{"spec", "updateStrategy", field}
		}
		return []string{"spec", "updateStrategy", "rollingUpdate", field}
	}
}

var workloadKinds = map[schema.GroupResource]*workloadKind{
	{Group: Group, Resource: "clonesets"}: {
		noun: "cloneset", pausedPath: cloneSetPath("paused"), partitionPath: cloneSetPath("partition"),
	},
	{Group: Group, Resource: "statefulsets"}: {
		noun: "statefulset", pausedPath: rollingUpdatePath("paused"), partitionPath: rollingUpdatePath("partition"),
	},
	{Group: Group, Resource: "daemonsets"}: {
		noun: "daemonset", pausedPath: rollingUpdatePath("paused"), partitionPath: rollingUpdatePath("partition"), daemon: true,
	},
}

// kindFor returns the description of a supported resource, or a kubectl-style error
// naming what is supported.
func kindFor(gr schema.GroupResource, command string) (*workloadKind, error) {
	if k, ok := workloadKinds[gr]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("%s is not supported for %q: supported resources are %s", command, gr.String(), supportedResources())
}

func supportedResources() string {
	var names []string
	for gr := range workloadKinds {
		names = append(names, gr.String())
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// paused reports the paused field of obj (absent = false).
func (k *workloadKind) paused(obj *unstructured.Unstructured) bool {
	v, _, _ := unstructured.NestedBool(obj.Object, k.pausedPath(obj.GroupVersionKind().Version)...)
	return v
}

// partition resolves the partition against the desired count: an int, or for CloneSet
// a percentage of replicas rounded up as OpenKruise does. Absent = 0.
func (k *workloadKind) partition(obj *unstructured.Unstructured, desired int64) (int64, error) {
	raw, found, err := unstructured.NestedFieldNoCopy(obj.Object, k.partitionPath(obj.GroupVersionKind().Version)...)
	if err != nil || !found || raw == nil {
		return 0, err
	}
	var p intstr.IntOrString
	switch v := raw.(type) {
	case int64:
		p = intstr.FromInt32(int32(v))
	case float64:
		p = intstr.FromInt32(int32(v))
	case string:
		p = intstr.Parse(v)
	default:
		return 0, fmt.Errorf("partition has unexpected type %T", raw)
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&p, int(desired), true)
	if err != nil {
		return 0, fmt.Errorf("partition: %w", err)
	}
	return int64(n), nil
}

// nestedPatch builds the merge patch that sets value (a JSON value: bool, string,
// number) at path.
func nestedPatch(path []string, value interface{}) map[string]interface{} {
	patch := map[string]interface{}{}
	// Only fails when an intermediate field is not a map, which an empty patch has not.
	_ = unstructured.SetNestedField(patch, value, path...)
	return patch
}
