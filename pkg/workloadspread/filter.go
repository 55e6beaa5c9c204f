package workloadspread

import (
	"fmt"
	"math"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Selects reports whether ws manages a pod of its target with these labels: every pod
// without a targetFilter or without its selector, else the pods the selector matches.
func Selects(ws *appsv1beta1.WorkloadSpread, podLabels map[string]string) (bool, error) {
	sel, err := TargetFilterSelector(ws)
	if err != nil {
		return false, err
	}
	return sel.Matches(labels.Set(podLabels)), nil
}

// TargetFilterSelector is the selector of the pods ws manages among its target's:
// everything without a targetFilter or without its selector. Parse it once for many
// pods.
func TargetFilterSelector(ws *appsv1beta1.WorkloadSpread) (labels.Selector, error) {
	f := ws.Spec.TargetFilter
	if f == nil || f.Selector == nil {
		return labels.Everything(), nil
	}
	sel, err := metav1.LabelSelectorAsSelector(f.Selector)
	if err != nil {
		return nil, fmt.Errorf("targetFilter.selector: %w", err)
	}
	return sel, nil
}

// FilteredReplicas is the number of replicas ws's percents are taken of: with a
// targetFilter.replicasPathList, the sum of those integer fields of the target object
// (obj, its unstructured content), a missing field counting 0 as in OpenKruise;
// otherwise targetReplicas.
func FilteredReplicas(ws *appsv1beta1.WorkloadSpread, obj map[string]any, targetReplicas int32) (int32, error) {
	f := ws.Spec.TargetFilter
	if f == nil || len(f.ReplicasPathList) == 0 {
		return targetReplicas, nil
	}
	var sum int64
	for _, path := range f.ReplicasPathList {
		n, err := intAt(obj, path)
		if err != nil {
			return 0, fmt.Errorf("targetFilter.replicasPathList %q: %w", path, err)
		}
		sum += n
	}
	return int32(min(max(sum, 0), math.MaxInt32)), nil
}

// intAt reads the integer at a dot-separated path; 0 when a step is absent.
func intAt(obj map[string]any, path string) (int64, error) {
	var cur any = obj
	for _, step := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return 0, fmt.Errorf("%T is not an object", cur)
		}
		if cur, ok = m[step]; !ok || cur == nil {
			return 0, nil
		}
	}
	switch v := cur.(type) {
	case int64:
		return v, nil
	case int32:
		return int64(v), nil
	case int:
		return int64(v), nil
	case float64:
		if v == math.Trunc(v) {
			return int64(v), nil
		}
	}
	return 0, fmt.Errorf("%v is not an integer", cur)
}
