package kubectlkruise

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group is the API group of the workloads the plugin handles.
const Group = "apps.kruise.io"

// WorkloadVersion is the one version the plugin reads and writes the workloads in, whatever
// version a file or argument named: the server converts, so field paths are written
// once (v1alpha1 CloneSets keep paused and partition elsewhere).
const WorkloadVersion = "v1beta1"

// workloadKind describes where one Kruise workload keeps the fields the commands read
// and write, in WorkloadVersion.
type workloadKind struct {
	// noun is how kubectl-style messages name the kind ("cloneset").
	noun string
	// resource is the kind's resource in WorkloadVersion.
	resource schema.GroupVersionResource
	// integerPartition: the kind's partition (partitionPath) is a count. CloneSet's may
	// be a percentage: its count is read from status.expectedUpdatedReplicas, which
	// the controller computes, rather than resolved here a second time.
	integerPartition bool
	// daemon kinds have no spec.replicas: their desired count is the scheduled nodes.
	daemon bool
}

// Where every workload kind keeps its rollout's pause and partition.
var (
	pausedPath    = []string{"spec", "updateStrategy", "rollingUpdate", "paused"}
	partitionPath = []string{"spec", "updateStrategy", "rollingUpdate", "partition"}
)

func workloadResource(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: Group, Version: WorkloadVersion, Resource: resource}
}

var workloadKinds = map[schema.GroupResource]*workloadKind{
	{Group: Group, Resource: "clonesets"}: {
		noun: "cloneset", resource: workloadResource("clonesets"),
	},
	{Group: Group, Resource: "statefulsets"}: {
		noun: "statefulset", resource: workloadResource("statefulsets"), integerPartition: true,
	},
	{Group: Group, Resource: "daemonsets"}: {
		noun: "daemonset", resource: workloadResource("daemonsets"), integerPartition: true, daemon: true,
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
	v, _, _ := unstructured.NestedBool(obj.Object, pausedPath...)
	return v
}

// expectedUpdated is how many of desired pods the rollout updates: desired minus the
// partition. A CloneSet's comes from its status (the controller resolves a percentage
// partition); the other kinds' partition is a plain count.
func (k *workloadKind) expectedUpdated(obj *unstructured.Unstructured, desired int64) int64 {
	if !k.integerPartition {
		return nestedInt(obj, "status", "expectedUpdatedReplicas")
	}
	return max(desired-nestedInt(obj, partitionPath...), 0)
}

// nestedPatch builds the merge patch that sets value (a JSON value: bool, string,
// number) at path.
func nestedPatch(path []string, value interface{}) map[string]interface{} {
	patch := map[string]interface{}{}
	// Only fails when an intermediate field is not a map, which an empty patch has not.
	_ = unstructured.SetNestedField(patch, value, path...)
	return patch
}
