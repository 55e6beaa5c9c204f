package kubectlkruise

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// progress is one observation of a rollout: the line to print and whether it is over.
type progress struct {
	message string
	done    bool
}

func nestedInt(obj *unstructured.Unstructured, path ...string) int64 {
	v, _, _ := unstructured.NestedInt64(obj.Object, path...)
	return v
}

// rolloutProgress reads a workload's status the way kubectl's status viewers read a
// Deployment's, with one difference: pods held back by the partition are expected to
// stay old, so reaching the expected updated count is success. Everything it judges by
// is what the controller wrote: the counts, the expected updated count and the
// Progressing condition.
func (k *workloadKind) rolloutProgress(obj *unstructured.Unstructured) (progress, error) {
	name := obj.GetName()
	if observed := nestedInt(obj, "status", "observedGeneration"); observed < obj.GetGeneration() {
		return progress{message: fmt.Sprintf("Waiting for %s spec update to be observed...\n", k.noun)}, nil
	}
	// As kubectl for a Deployment: a rollout past its progress deadline is a failure,
	// not something to wait for.
	if reason := conditionReason(obj, "Progressing"); reason == "ProgressDeadlineExceeded" {
		return progress{}, fmt.Errorf("%s %q exceeded its progress deadline", k.noun, name)
	}
	var desired, total, updated, available int64
	if k.daemon {
		desired = nestedInt(obj, "status", "desiredNumberScheduled")
		total = desired
		updated = nestedInt(obj, "status", "updatedNumberScheduled")
		available = nestedInt(obj, "status", "numberAvailable")
	} else {
		desired = 1 // the API default when spec.replicas is unset
		if r, found, _ := unstructured.NestedInt64(obj.Object, "spec", "replicas"); found {
			desired = r
		}
		total = nestedInt(obj, "status", "replicas")
		updated = nestedInt(obj, "status", "updatedReplicas")
		available = nestedInt(obj, "status", "updatedReadyReplicas")
	}
	target := k.expectedUpdated(obj, desired)
	partition := desired - target
	unit := "replicas"
	if k.daemon {
		unit = "pods"
	}
	switch {
	case updated < target && partition > 0:
		return progress{message: fmt.Sprintf("Waiting for partitioned rollout to finish: %d out of %d new %s have been updated...\n", updated, target, unit)}, nil
	case updated < target:
		return progress{message: fmt.Sprintf("Waiting for rollout to finish: %d out of %d new %s have been updated...\n", updated, target, unit)}, nil
	case partition == 0 && total > updated:
		return progress{message: fmt.Sprintf("Waiting for rollout to finish: %d old %s are pending termination...\n", total-updated, unit)}, nil
	case available < target:
		return progress{message: fmt.Sprintf("Waiting for rollout to finish: %d of %d updated %s are available...\n", available, target, unit)}, nil
	case partition > 0:
		return progress{done: true, message: fmt.Sprintf("%s %q partition rolled out: %d of %d %s updated, %d held back by partition %d\n",
			k.noun, name, updated, desired, unit, desired-updated, partition)}, nil
	}
	return progress{done: true, message: fmt.Sprintf("%s %q successfully rolled out\n", k.noun, name)}, nil
}

// conditionReason is the reason of the status condition of type t, "" without one.
func conditionReason(obj *unstructured.Unstructured, t string) string {
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]interface{})
		if ok && m["type"] == t {
			reason, _ := m["reason"].(string)
			return reason
		}
	}
	return ""
}
