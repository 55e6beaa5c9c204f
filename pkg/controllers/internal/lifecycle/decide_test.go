package lifecycle

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
)

func TestDecideDelete(t *testing.T) {
	tests := []struct {
		name    string
		lc      *pub.Lifecycle
		pod     *corev1.Pod
		proceed bool
		want    *Step
	}{
		{"no lifecycle", nil, pod(pub.LifecycleStateNormal, withLabel), true, nil},
		{"no preDelete hook", &pub.Lifecycle{InPlaceUpdate: labelsHook(true)}, pod(pub.LifecycleStateNormal, withLabel), true, nil},
		{"labels hook holds", &pub.Lifecycle{PreDelete: labelsHook(false)}, pod(pub.LifecycleStateNormal, withLabel), false,
			&Step{To: pub.LifecycleStatePreparingDelete}},
		{"finalizers hook holds, mark", &pub.Lifecycle{PreDelete: finalizersHook(true)}, pod(pub.LifecycleStateNormal, withFinalizer), false,
			&Step{To: pub.LifecycleStatePreparingDelete, MarkNotReady: true}},
		{"hook present, pod carries nothing: delete at once", &pub.Lifecycle{PreDelete: labelsHook(true)}, pod(pub.LifecycleStateNormal), true, nil},
		{"PreparingDelete still held", &pub.Lifecycle{PreDelete: labelsHook(false)}, pod(pub.LifecycleStatePreparingDelete, withLabel), false,
			&Step{To: pub.LifecycleStatePreparingDelete}},
		{"PreparingDelete released: delete", &pub.Lifecycle{PreDelete: labelsHook(false)}, pod(pub.LifecycleStatePreparingDelete), true, nil},
		{"unlabelled pod held", &pub.Lifecycle{PreDelete: finalizersHook(false)}, pod("", withFinalizer), false,
			&Step{To: pub.LifecycleStatePreparingDelete}},
		{"Updating pod held", &pub.Lifecycle{PreDelete: labelsHook(false)}, pod(pub.LifecycleStateUpdating, withLabel), false,
			&Step{To: pub.LifecycleStatePreparingDelete}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proceed, step := DecideDelete(tt.lc, tt.pod)
			if proceed != tt.proceed || !reflect.DeepEqual(step, tt.want) {
				t.Errorf("DecideDelete = %v, %+v; want %v, %+v", proceed, step, tt.proceed, tt.want)
			}
		})
	}
}

func TestCancelDelete(t *testing.T) {
	tests := []struct {
		name string
		lc   *pub.Lifecycle
		pod  *corev1.Pod
		want *Step
	}{
		{"not PreparingDelete", &pub.Lifecycle{PreDelete: labelsHook(false)}, pod(pub.LifecycleStateNormal), nil},
		{"back to Normal", &pub.Lifecycle{PreDelete: labelsHook(false)}, pod(pub.LifecycleStatePreparingDelete, withLabel),
			&Step{To: pub.LifecycleStateNormal}},
		{"back to PreparingNormal while preNormal is not satisfied",
			&pub.Lifecycle{PreDelete: labelsHook(false), PreNormal: finalizersHook(false)}, pod(pub.LifecycleStatePreparingDelete),
			&Step{To: pub.LifecycleStatePreparingNormal}},
		{"back to Normal when preNormal is satisfied",
			&pub.Lifecycle{PreDelete: labelsHook(false), PreNormal: finalizersHook(false)}, pod(pub.LifecycleStatePreparingDelete, withFinalizer),
			&Step{To: pub.LifecycleStateNormal}},
		{"no regret with preDelete markPodNotReady", &pub.Lifecycle{PreDelete: labelsHook(true)}, pod(pub.LifecycleStatePreparingDelete), nil},
		{"no regret with inPlaceUpdate markPodNotReady",
			&pub.Lifecycle{PreDelete: labelsHook(false), InPlaceUpdate: finalizersHook(true)}, pod(pub.LifecycleStatePreparingDelete), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CancelDelete(tt.lc, tt.pod); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CancelDelete = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecideInPlaceUpdate(t *testing.T) {
	labels := &pub.Lifecycle{InPlaceUpdate: labelsHook(true)}
	fins := &pub.Lifecycle{InPlaceUpdate: finalizersHook(false)}
	updating := &Step{To: pub.LifecycleStateUpdating}
	tests := []struct {
		name    string
		lc      *pub.Lifecycle
		pod     *corev1.Pod
		proceed bool
		want    *Step
	}{
		{"no lifecycle, Normal: proceed, no label change", nil, pod(pub.LifecycleStateNormal), true, nil},
		{"no lifecycle, unlabelled: proceed, no label", nil, pod(""), true, nil},
		{"no lifecycle, PreparingNormal: proceed", &pub.Lifecycle{PreNormal: labelsHook(false)}, pod(pub.LifecycleStatePreparingNormal), true, nil},
		{"hook not holding: proceed, Updating rides on the patch", labels, pod(pub.LifecycleStateNormal), true, updating},
		{"labels hook holds: PreparingUpdate, not ready", labels, pod(pub.LifecycleStateNormal, withLabel), false,
			&Step{To: pub.LifecycleStatePreparingUpdate, MarkNotReady: true}},
		{"finalizers hook holds: PreparingUpdate", fins, pod(pub.LifecycleStateNormal, withFinalizer), false,
			&Step{To: pub.LifecycleStatePreparingUpdate}},
		{"PreparingNormal pod held", fins, pod(pub.LifecycleStatePreparingNormal, withFinalizer), false,
			&Step{To: pub.LifecycleStatePreparingUpdate}},
		{"unlabelled pod held", fins, pod("", withFinalizer), false, &Step{To: pub.LifecycleStatePreparingUpdate}},
		{"PreparingUpdate still held: wait", labels, pod(pub.LifecycleStatePreparingUpdate, withLabel), false,
			&Step{To: pub.LifecycleStatePreparingUpdate, MarkNotReady: true}},
		{"PreparingUpdate released: proceed", labels, pod(pub.LifecycleStatePreparingUpdate), true, updating},
		{"PreparingUpdate, hook removed from the workload: proceed", nil, pod(pub.LifecycleStatePreparingUpdate), true, updating},
		{"Updating: update again", labels, pod(pub.LifecycleStateUpdating, withLabel), true, updating},
		{"Updating without hook: update again", nil, pod(pub.LifecycleStateUpdating), true, updating},
		{"Updated: rehook and PreparingUpdate", labels, pod(pub.LifecycleStateUpdated), false,
			&Step{To: pub.LifecycleStatePreparingUpdate, MarkNotReady: true, Rehook: labels.InPlaceUpdate}},
		{"Updated without hook: proceed", nil, pod(pub.LifecycleStateUpdated), true, updating},
		{"PreparingDelete: never", labels, pod(pub.LifecycleStatePreparingDelete), false, nil},
		{"PreparingDelete without lifecycle: never", nil, pod(pub.LifecycleStatePreparingDelete), false, nil},
		{"unknown state: never", labels, pod("Bogus"), false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proceed, step := DecideInPlaceUpdate(tt.lc, tt.pod)
			if proceed != tt.proceed || !reflect.DeepEqual(step, tt.want) {
				t.Errorf("DecideInPlaceUpdate = %v, %+v; want %v, %+v", proceed, step, tt.proceed, tt.want)
			}
		})
	}
}

func TestDecideNormal(t *testing.T) {
	preNormalLabels := &pub.Lifecycle{PreNormal: labelsHook(false)}
	preNormalFins := &pub.Lifecycle{PreNormal: finalizersHook(false)}
	labels := &pub.Lifecycle{InPlaceUpdate: labelsHook(true)}
	fins := &pub.Lifecycle{InPlaceUpdate: finalizersHook(false)}
	tests := []struct {
		name     string
		lc       *pub.Lifecycle
		pod      *corev1.Pod
		upToDate bool
		want     *Step
	}{
		{"no lifecycle, Normal: nothing", nil, pod(pub.LifecycleStateNormal), true, nil},
		{"no lifecycle, unlabelled: nothing (never labelled)", nil, pod(""), true, nil},
		{"PreparingNormal without preNormal hook: Normal", nil, pod(pub.LifecycleStatePreparingNormal), false,
			&Step{To: pub.LifecycleStateNormal}},
		{"PreparingNormal, labels not there yet: wait", preNormalLabels, pod(pub.LifecycleStatePreparingNormal), false, nil},
		{"PreparingNormal, labels added: Normal", preNormalLabels, pod(pub.LifecycleStatePreparingNormal, withLabel), false,
			&Step{To: pub.LifecycleStateNormal}},
		{"PreparingNormal, finalizer not there yet: wait", preNormalFins, pod(pub.LifecycleStatePreparingNormal), false, nil},
		{"PreparingNormal, finalizer added: Normal", preNormalFins, pod(pub.LifecycleStatePreparingNormal, withFinalizer), false,
			&Step{To: pub.LifecycleStateNormal}},
		{"Updating, not done: wait", labels, pod(pub.LifecycleStateUpdating), false, nil},
		{"Updating done, labels still removed: Updated", labels, pod(pub.LifecycleStateUpdating), true,
			&Step{To: pub.LifecycleStateUpdated, MarkNotReady: true}},
		{"Updating done, finalizer still removed: Updated", fins, pod(pub.LifecycleStateUpdating), true,
			&Step{To: pub.LifecycleStateUpdated}},
		{"Updating done, labels already back: Normal", labels, pod(pub.LifecycleStateUpdating, withLabel), true,
			&Step{To: pub.LifecycleStateNormal, MarkNotReady: true}},
		{"Updating done without hook: Normal", nil, pod(pub.LifecycleStateUpdating), true, &Step{To: pub.LifecycleStateNormal}},
		{"PreparingUpdate, update still needed: wait", labels, pod(pub.LifecycleStatePreparingUpdate), false, nil},
		{"PreparingUpdate, rolled back: Updated", labels, pod(pub.LifecycleStatePreparingUpdate), true,
			&Step{To: pub.LifecycleStateUpdated, MarkNotReady: true}},
		{"PreparingUpdate, rolled back, still hooked: Normal", fins, pod(pub.LifecycleStatePreparingUpdate, withFinalizer), true,
			&Step{To: pub.LifecycleStateNormal}},
		{"Updated, labels not back: wait", labels, pod(pub.LifecycleStateUpdated), true, nil},
		{"Updated, labels back: Normal", labels, pod(pub.LifecycleStateUpdated, withLabel), true,
			&Step{To: pub.LifecycleStateNormal, MarkNotReady: true}},
		{"Updated, finalizer back: Normal", fins, pod(pub.LifecycleStateUpdated, withFinalizer), false,
			&Step{To: pub.LifecycleStateNormal}},
		{"Updated without hook: Normal", nil, pod(pub.LifecycleStateUpdated), true, &Step{To: pub.LifecycleStateNormal}},
		{"PreparingDelete: nothing", labels, pod(pub.LifecycleStatePreparingDelete), true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DecideNormal(tt.lc, tt.pod, tt.upToDate); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DecideNormal = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// write is one API write a flow makes.
type write struct {
	status bool
	state  pub.LifecycleStateType
}

// apply takes step on *p like the workload would, recording the write it needs.
func apply(t *testing.T, p **corev1.Pod, step *Step, writes *[]write) {
	t.Helper()
	if step == nil {
		return
	}
	newPod, status := step.Apply(*p, t1)
	if newPod == nil {
		return
	}
	if _, err := podpatch.Bytes(*p, newPod); err != nil {
		t.Fatal(err)
	}
	*writes = append(*writes, write{status, State(newPod)})
	*p = newPod
}

// TestFlowWithoutLifecycle: a workload without hooks creates, updates in place and
// deletes a pod without a single lifecycle write.
func TestFlowWithoutLifecycle(t *testing.T) {
	p := &corev1.Pod{}
	SetInitialState(p, nil, t0)
	InjectReadinessGate(p, nil)
	if State(p) != pub.LifecycleStateNormal || len(p.Spec.ReadinessGates) != 0 {
		t.Fatalf("created pod: %v %v", p.Labels, p.Spec.ReadinessGates)
	}
	var writes []write
	apply(t, &p, DecideNormal(nil, p, true), &writes)
	proceed, step := DecideInPlaceUpdate(nil, p)
	if !proceed || step != nil {
		t.Fatalf("DecideInPlaceUpdate = %v, %+v", proceed, step)
	}
	apply(t, &p, DecideNormal(nil, p, false), &writes) // mid-update
	apply(t, &p, DecideNormal(nil, p, true), &writes)  // done
	if proceed, step := DecideDelete(nil, p); !proceed || step != nil {
		t.Fatalf("DecideDelete = %v, %+v", proceed, step)
	}
	if len(writes) != 0 {
		t.Errorf("lifecycle writes without lifecycle: %+v", writes)
	}
}

// TestFlowInPlaceUpdateHook runs an in-place update through a labels hook with
// markPodNotReady and counts writes: PreparingUpdate (status: not ready), Updating
// (free, on the update patch), Updated (status: ready again), Normal (metadata).
func TestFlowInPlaceUpdateHook(t *testing.T) {
	lc := &pub.Lifecycle{InPlaceUpdate: labelsHook(true)}
	p := &corev1.Pod{}
	SetInitialState(p, lc, t0)
	InjectReadinessGate(p, lc)
	p.Status.Conditions = []corev1.PodCondition{
		{Type: corev1.PodReady, Status: corev1.ConditionTrue},
		{Type: kruisePodReady, Status: corev1.ConditionTrue},
	}
	withLabel(p) // the owner put the pod in service

	var writes []write
	proceed, step := DecideInPlaceUpdate(lc, p)
	if proceed {
		t.Fatal("proceeded while held")
	}
	apply(t, &p, step, &writes)
	if proceed, step = DecideInPlaceUpdate(lc, p); proceed {
		t.Fatal("proceeded while held")
	}
	apply(t, &p, step, &writes) // nothing new

	delete(p.Labels, blockLabel) // the owner took it out of service
	proceed, step = DecideInPlaceUpdate(lc, p)
	if !proceed || step == nil || step.To != pub.LifecycleStateUpdating {
		t.Fatalf("DecideInPlaceUpdate = %v, %+v", proceed, step)
	}
	if !SetState(p, step.To, t1) { // folded into the in-place update patch
		t.Fatal("Updating not set")
	}
	apply(t, &p, DecideNormal(lc, p, false), &writes)
	apply(t, &p, DecideNormal(lc, p, true), &writes)
	apply(t, &p, DecideNormal(lc, p, true), &writes) // owner not back yet: nothing
	withLabel(p)                                     // the owner put it back in service
	apply(t, &p, DecideNormal(lc, p, true), &writes)
	apply(t, &p, DecideNormal(lc, p, true), &writes)

	want := []write{
		{true, pub.LifecycleStatePreparingUpdate},
		{true, pub.LifecycleStateUpdated},
		{false, pub.LifecycleStateNormal},
	}
	if !reflect.DeepEqual(writes, want) {
		t.Errorf("writes = %+v, want %+v", writes, want)
	}
	if c := podcondition.Find(p.Status.Conditions, kruisePodReady); c.Status != corev1.ConditionTrue {
		t.Errorf("KruisePodReady = %+v", c)
	}
}

// TestFlowPreNormalAndPreDelete: PreparingNormal → Normal once the owner adds the
// finalizer, PreparingDelete while it is there, deletion once it is gone.
func TestFlowPreNormalAndPreDelete(t *testing.T) {
	lc := &pub.Lifecycle{PreNormal: finalizersHook(false), PreDelete: finalizersHook(false)}
	p := &corev1.Pod{}
	SetInitialState(p, lc, t0)
	var writes []write
	apply(t, &p, DecideNormal(lc, p, true), &writes)
	withFinalizer(p)
	apply(t, &p, DecideNormal(lc, p, true), &writes)
	proceed, step := DecideDelete(lc, p)
	if proceed {
		t.Fatal("deleted while held")
	}
	apply(t, &p, step, &writes)
	p.Finalizers = nil
	if proceed, _ := DecideDelete(lc, p); !proceed {
		t.Fatal("not deleted once released")
	}
	want := []write{{false, pub.LifecycleStateNormal}, {false, pub.LifecycleStatePreparingDelete}}
	if !reflect.DeepEqual(writes, want) {
		t.Errorf("writes = %+v, want %+v", writes, want)
	}
}
