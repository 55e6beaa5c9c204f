package v1alpha1

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/policy"
)

// v1alpha1 has no spec.protectOperations, spec.protectTotalReplicas or
// spec.ignoredPodSelector: as in OpenKruise it carries them in annotations, which the
// object conversions below move to and from the hub's fields (the spec conversion
// alone cannot reach metadata).

// Convert_policy_PodUnavailableBudgetSpec_To_v1alpha1_PodUnavailableBudgetSpec leaves
// out what v1alpha1's spec cannot hold; the object conversion keeps it in annotations.
func Convert_policy_PodUnavailableBudgetSpec_To_v1alpha1_PodUnavailableBudgetSpec(in *policy.PodUnavailableBudgetSpec, out *PodUnavailableBudgetSpec, s conversion.Scope) error {
	return autoConvert_policy_PodUnavailableBudgetSpec_To_v1alpha1_PodUnavailableBudgetSpec(in, out, s)
}

// Convert_policy_PodUnavailableBudget_To_v1alpha1_PodUnavailableBudget writes the
// v1beta1-only fields as annotations.
func Convert_policy_PodUnavailableBudget_To_v1alpha1_PodUnavailableBudget(in *policy.PodUnavailableBudget, out *PodUnavailableBudget, s conversion.Scope) error {
	if err := autoConvert_policy_PodUnavailableBudget_To_v1alpha1_PodUnavailableBudget(in, out, s); err != nil {
		return err
	}
	set := map[string]string{}
	if ops := in.Spec.ProtectOperations; len(ops) > 0 {
		names := make([]string, len(ops))
		for i, op := range ops {
			names[i] = string(op)
		}
		set[PubProtectOperationAnnotation] = strings.Join(names, ",")
	}
	if n := in.Spec.ProtectTotalReplicas; n != nil {
		set[PubProtectTotalReplicasAnnotation] = strconv.FormatInt(int64(*n), 10)
	}
	if sel := in.Spec.IgnoredPodSelector; sel != nil {
		data, err := json.Marshal(sel)
		if err != nil {
			return err
		}
		set[PubIgnoredPodSelectorAnnotation] = string(data)
	}
	if len(set) == 0 {
		return nil
	}
	// the metadata is shared with in: write a copy
	annotations := make(map[string]string, len(out.Annotations)+len(set))
	for k, v := range out.Annotations {
		annotations[k] = v
	}
	for k, v := range set {
		annotations[k] = v
	}
	out.Annotations = annotations
	return nil
}

// Convert_v1alpha1_PodUnavailableBudget_To_policy_PodUnavailableBudget reads the
// annotations into the hub's fields. An annotation that does not parse stays, for
// validation to report.
func Convert_v1alpha1_PodUnavailableBudget_To_policy_PodUnavailableBudget(in *PodUnavailableBudget, out *policy.PodUnavailableBudget, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_PodUnavailableBudget_To_policy_PodUnavailableBudget(in, out, s); err != nil {
		return err
	}
	var moved []string
	if v, ok := in.Annotations[PubProtectOperationAnnotation]; ok {
		if ops, known := protectOperations(v); known {
			out.Spec.ProtectOperations = ops
			moved = append(moved, PubProtectOperationAnnotation)
		}
	}
	if v, ok := in.Annotations[PubProtectTotalReplicasAnnotation]; ok {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			n32 := int32(n)
			out.Spec.ProtectTotalReplicas = &n32
			moved = append(moved, PubProtectTotalReplicasAnnotation)
		}
	}
	if v, ok := in.Annotations[PubIgnoredPodSelectorAnnotation]; ok {
		sel := &metav1.LabelSelector{}
		if err := json.Unmarshal([]byte(v), sel); err == nil {
			out.Spec.IgnoredPodSelector = sel
			moved = append(moved, PubIgnoredPodSelectorAnnotation)
		}
	}
	if len(moved) == 0 {
		return nil
	}
	annotations := make(map[string]string, len(in.Annotations))
	for k, v := range in.Annotations {
		annotations[k] = v
	}
	for _, k := range moved {
		delete(annotations, k)
	}
	if len(annotations) == 0 {
		annotations = nil
	}
	out.Annotations = annotations
	return nil
}

// protectOperations parses the protect-operations annotation; known is false when it
// names an operation that is not one, and then the annotation stays, for validation to
// report at the path a v1alpha1 user wrote.
func protectOperations(v string) (ops []policy.PubOperation, known bool) {
	for _, op := range strings.Split(v, ",") {
		switch op := policy.PubOperation(strings.TrimSpace(op)); {
		case op == "":
		case slices.Contains(policy.PubOperations, op):
			ops = append(ops, op)
		default:
			return nil, false
		}
	}
	return ops, true
}
