package kubectlkruise

import (
	"strings"
	"testing"
)

func TestRolloutProgress(t *testing.T) {
	cases := []struct {
		name, version, kind, resource string
		spec, status                  map[string]interface{}
		want                          string
		done                          bool
	}{{
		name: "generation not observed", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec:   map[string]interface{}{"replicas": int64(5)},
		status: map[string]interface{}{"observedGeneration": int64(1)},
		want:   "Waiting for cloneset spec update to be observed...",
	}, {
		name: "updating", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec:   map[string]interface{}{"replicas": int64(5)},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(5), "updatedReplicas": int64(2), "expectedUpdatedReplicas": int64(5)},
		want:   "Waiting for rollout to finish: 2 out of 5 new replicas have been updated...",
	}, {
		name: "old pending termination", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec:   map[string]interface{}{"replicas": int64(5)},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(6), "updatedReplicas": int64(5), "expectedUpdatedReplicas": int64(5)},
		want:   "Waiting for rollout to finish: 1 old replicas are pending termination...",
	}, {
		name: "not available", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec:   map[string]interface{}{"replicas": int64(5)},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(5), "updatedReplicas": int64(5), "updatedReadyReplicas": int64(3), "expectedUpdatedReplicas": int64(5)},
		want:   "Waiting for rollout to finish: 3 of 5 updated replicas are available...",
	}, {
		name: "done", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec:   map[string]interface{}{"replicas": int64(5)},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(5), "updatedReplicas": int64(5), "updatedReadyReplicas": int64(5), "expectedUpdatedReplicas": int64(5)},
		want:   `cloneset "w" successfully rolled out`, done: true,
	}, {
		name: "partition reached", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec: map[string]interface{}{"replicas": int64(5),
			"updateStrategy": map[string]interface{}{"rollingUpdate": map[string]interface{}{"partition": int64(2)}}},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(5), "updatedReplicas": int64(3), "updatedReadyReplicas": int64(3), "expectedUpdatedReplicas": int64(3)},
		want:   `cloneset "w" partition rolled out: 3 of 5 replicas updated, 2 held back by partition 2`, done: true,
	}, {
		// The controller resolved 40% of 5 (rounded up: 2 held back); the plugin reads
		// its count and does not resolve the percentage again.
		name: "percent partition not reached", version: "v1beta1", kind: "CloneSet", resource: "clonesets",
		spec: map[string]interface{}{"replicas": int64(5),
			"updateStrategy": map[string]interface{}{"rollingUpdate": map[string]interface{}{"partition": "40%"}}},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(5), "updatedReplicas": int64(2), "expectedUpdatedReplicas": int64(3)},
		want:   "Waiting for partitioned rollout to finish: 2 out of 3 new replicas have been updated...",
	}, {
		name: "statefulset partition reached", version: "v1beta1", kind: "StatefulSet", resource: "statefulsets",
		spec: map[string]interface{}{"replicas": int64(3),
			"updateStrategy": map[string]interface{}{"rollingUpdate": map[string]interface{}{"partition": int64(1)}}},
		status: map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(3), "updatedReplicas": int64(2), "updatedReadyReplicas": int64(2)},
		want:   `statefulset "w" partition rolled out`, done: true,
	}, {
		name: "daemonset updating", version: "v1beta1", kind: "DaemonSet", resource: "daemonsets",
		spec:   map[string]interface{}{},
		status: map[string]interface{}{"observedGeneration": int64(2), "desiredNumberScheduled": int64(4), "updatedNumberScheduled": int64(1)},
		want:   "Waiting for rollout to finish: 1 out of 4 new pods have been updated...",
	}, {
		name: "daemonset done", version: "v1beta1", kind: "DaemonSet", resource: "daemonsets",
		spec:   map[string]interface{}{},
		status: map[string]interface{}{"observedGeneration": int64(2), "desiredNumberScheduled": int64(4), "updatedNumberScheduled": int64(4), "numberAvailable": int64(4)},
		want:   `daemonset "w" successfully rolled out`, done: true,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tg := targetOf(t, workload(tc.version, tc.kind, tc.spec, tc.status), tc.resource)
			p, err := tg.kind.rolloutProgress(tg.Object)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.message, tc.want) || p.done != tc.done {
				t.Errorf("got %q done=%v, want %q done=%v", p.message, p.done, tc.want, tc.done)
			}
		})
	}
}

func TestUnknownKindIsRefused(t *testing.T) {
	_, err := kindFor(gvr("v1", "deployments").GroupResource(), "rollout undo")
	if err == nil || !strings.Contains(err.Error(), "clonesets.apps.kruise.io") {
		t.Fatalf("err = %v, want an error naming the supported resources", err)
	}
}

// As kubectl for a Deployment: a Progressing condition with reason
// ProgressDeadlineExceeded ends `rollout status` with an error (a non-zero exit).
func TestRolloutProgressDeadlineExceeded(t *testing.T) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{"replicas": int64(2)},
		map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(2), "expectedUpdatedReplicas": int64(2), "updatedReplicas": int64(1),
			"conditions": []interface{}{map[string]interface{}{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}}})
	tg := targetOf(t, obj, "clonesets")
	_, err := tg.kind.rolloutProgress(tg.Object)
	if err == nil || !strings.Contains(err.Error(), `cloneset "w" exceeded its progress deadline`) {
		t.Fatalf("err = %v, want the progress deadline exceeded", err)
	}
	// Progressing True (CloneSetUpdated): still waiting, no error.
	obj.Object["status"].(map[string]interface{})["conditions"] = []interface{}{
		map[string]interface{}{"type": "Progressing", "status": "True", "reason": "CloneSetUpdated"}}
	if p, err := tg.kind.rolloutProgress(obj); err != nil || p.done {
		t.Fatalf("progressing rollout: %+v, %v; want waiting", p, err)
	}
}
