package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestRolloutStatusSucceedsOnWatchEvent(t *testing.T) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{"replicas": int64(2)},
		map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(2), "expectedUpdatedReplicas": int64(2), "updatedReplicas": int64(1)})
	dyn := newDynamic(obj.DeepCopy())
	tg := targetOf(t, obj, "clonesets")
	var out bytes.Buffer
	errc := make(chan error, 1)
	go func() { errc <- rolloutStatus(context.Background(), dyn, tg, true, time.Minute, &out) }()

	// The controller finishes: the command must notice through its watch.
	done := obj.DeepCopy()
	done.Object["status"] = map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(2), "expectedUpdatedReplicas": int64(2), "updatedReplicas": int64(2), "updatedReadyReplicas": int64(2)}
	deadline := time.After(30 * time.Second)
	for {
		// Updates before the watch starts are seen by its initial list; repeat until done.
		if _, err := dyn.Resource(tg.GVR).Namespace(testNS).Update(context.Background(), done, metav1UpdateOptions()); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-errc:
			if err != nil {
				t.Fatalf("rollout status: %v", err)
			}
			if !strings.Contains(out.String(), `cloneset "w" successfully rolled out`) {
				t.Fatalf("output %q lacks success", out.String())
			}
			return
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("rollout status did not return; output %q", out.String())
		}
	}
}

func TestRolloutStatusTimesOut(t *testing.T) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{"replicas": int64(2)},
		map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(2), "expectedUpdatedReplicas": int64(2), "updatedReplicas": int64(1)})
	var out bytes.Buffer
	err := rolloutStatus(context.Background(), newDynamic(obj.DeepCopy()), targetOf(t, obj, "clonesets"), true, 200*time.Millisecond, &out)
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if !strings.Contains(out.String(), "1 out of 2 new replicas have been updated") {
		t.Errorf("output %q lacks the progress line", out.String())
	}
}

func TestRolloutStatusNoWatchPrintsOnce(t *testing.T) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{"replicas": int64(2)},
		map[string]interface{}{"observedGeneration": int64(2), "replicas": int64(2), "expectedUpdatedReplicas": int64(2), "updatedReplicas": int64(1)})
	var out bytes.Buffer
	if err := rolloutStatus(context.Background(), newDynamic(), targetOf(t, obj, "clonesets"), false, 0, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "Waiting for rollout to finish: 1 out of 2 new replicas have been updated...\n" {
		t.Errorf("output %q", got)
	}
}
