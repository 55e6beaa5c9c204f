package imagelistpulljob

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func TestCompute(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	list := &v1alpha1.ImageListPullJob{ObjectMeta: metav1.ObjectMeta{Name: "l", Namespace: "ns", UID: "u"},
		Spec: v1alpha1.ImageListPullJobSpec{Images: []string{"a:1", "b:1", "c:1"}}}
	list.Spec.CompletionPolicy = v1alpha1.CompletionPolicy{Type: v1alpha1.Always, TTLSecondsAfterFinished: ptr.To[int32](60)}
	done := func(img string, desired, ok, failed int32) *v1alpha1.ImagePullJob {
		j := NewChild(list, img)
		j.Status = v1alpha1.ImagePullJobStatus{Desired: desired, Succeeded: ok, Failed: failed,
			CompletionTime: &metav1.Time{Time: now}, Message: "m"}
		return j
	}
	running := func(img string) *v1alpha1.ImagePullJob { return NewChild(list, img) }

	// Nothing yet: a job per image.
	p := Compute(list, nil, now)
	if len(p.Create) != 3 || p.Status.Desired != 3 || p.Status.Active != 3 || p.Status.CompletionTime != nil || p.Status.StartTime == nil {
		t.Fatalf("fresh list: %+v", p)
	}

	// One done, one failed somewhere, one running; an image dropped from the list goes.
	p = Compute(list, []*v1alpha1.ImagePullJob{done("a:1", 2, 2, 0), done("b:1", 2, 1, 1), running("c:1"), running("gone:1")}, now)
	if len(p.Create) != 0 || len(p.Delete) != 1 || p.Delete[0].Spec.Image != "gone:1" {
		t.Fatalf("create %v delete %v", p.Create, p.Delete)
	}
	st := p.Status
	if st.Active != 1 || st.Completed != 2 || st.Succeeded != 1 || st.CompletionTime != nil {
		t.Fatalf("status = %+v, want active 1 completed 2 succeeded 1", st)
	}
	if len(st.FailedImageStatuses) != 1 || st.FailedImageStatuses[0].Name != "b:1" || st.FailedImageStatuses[0].ImagePullJob != ChildName(list, "b:1") {
		t.Fatalf("failed images = %+v", st.FailedImageStatuses)
	}

	// All completed: the list completes.
	p = Compute(list, []*v1alpha1.ImagePullJob{done("a:1", 2, 2, 0), done("b:1", 2, 2, 0), done("c:1", 2, 2, 0)}, now)
	if p.Status.CompletionTime == nil || p.Status.Succeeded != 3 {
		t.Fatalf("status = %+v, want complete with 3 succeeded", p.Status)
	}
}

func TestNewChild(t *testing.T) {
	list := &v1alpha1.ImageListPullJob{ObjectMeta: metav1.ObjectMeta{Name: "l", Namespace: "ns", UID: "u"}}
	list.Spec.Parallelism = nil
	list.Spec.CompletionPolicy = v1alpha1.CompletionPolicy{Type: v1alpha1.Always, TTLSecondsAfterFinished: ptr.To[int32](60)}
	c := NewChild(list, "nginx:1")
	if c.Spec.Image != "nginx:1" || c.Spec.CompletionPolicy.TTLSecondsAfterFinished != nil {
		t.Fatalf("child spec = %+v: want the image and no TTL of its own", c.Spec)
	}
	if ref := metav1.GetControllerOf(c); ref == nil || ref.UID != "u" || ref.Kind != "ImageListPullJob" {
		t.Fatalf("child not controlled by the list: %+v", c.OwnerReferences)
	}
	if ChildName(list, "nginx:1") == ChildName(list, "nginx:2") {
		t.Fatal("two images share a child name")
	}
	if list.Spec.CompletionPolicy.TTLSecondsAfterFinished == nil {
		t.Fatal("NewChild changed the list")
	}
}
