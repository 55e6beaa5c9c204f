package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

type recordingPatcher struct {
	sub  []string
	data map[string]any
	err  error
}

func (r *recordingPatcher) Patch(_ context.Context, _, _ string, _ types.PatchType, data []byte, sub ...string) (*corev1.Pod, error) {
	r.sub = sub
	_ = json.Unmarshal(data, &r.data)
	return &corev1.Pod{}, r.err
}

func TestWriterSendsOneWritePerStep(t *testing.T) {
	// No step, or a step the pod already took: no write.
	p := &recordingPatcher{}
	w := Writer{Pods: p}
	if out, err := w.Write(context.Background(), pod(pub.LifecycleStateNormal), nil, t1); out != nil || err != nil || p.data != nil {
		t.Fatalf("nil step wrote %v (%v, %v)", p.data, out, err)
	}
	if out, err := w.Write(context.Background(), pod(pub.LifecycleStateNormal), &Step{To: pub.LifecycleStateNormal}, t1); out != nil || err != nil || p.data != nil {
		t.Fatalf("a step already taken wrote %v", p.data)
	}

	// A label change alone goes to the pod, guarded by its uid.
	if _, err := w.Write(context.Background(), pod(pub.LifecycleStateNormal, withLabel), &Step{To: pub.LifecycleStatePreparingDelete}, t1); err != nil {
		t.Fatal(err)
	}
	meta := p.data["metadata"].(map[string]any)
	if len(p.sub) != 0 || meta["uid"] != "uid-1" || meta["labels"].(map[string]any)[pub.LifecycleStateKey] != string(pub.LifecycleStatePreparingDelete) {
		t.Fatalf("patch %v to %v", p.data, p.sub)
	}

	// Marking the pod not ready changes a condition: one pods/status write with the label.
	p = &recordingPatcher{}
	w = Writer{Pods: p}
	if _, err := w.Write(context.Background(), pod(pub.LifecycleStateNormal, withLabel, withGate), &Step{To: pub.LifecycleStatePreparingDelete, MarkNotReady: true}, t1); err != nil {
		t.Fatal(err)
	}
	if len(p.sub) != 1 || p.sub[0] != "status" || p.data["status"] == nil || p.data["metadata"].(map[string]any)["labels"] == nil {
		t.Fatalf("patch %v to %v, want labels and conditions in one pods/status write", p.data, p.sub)
	}

	// Errors name the pod and the state.
	w = Writer{Pods: &recordingPatcher{err: errors.New("boom")}}
	if _, err := w.Write(context.Background(), pod(pub.LifecycleStateNormal), &Step{To: pub.LifecycleStatePreparingDelete}, t1); err == nil {
		t.Fatal("no error")
	}
}
