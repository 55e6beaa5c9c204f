package revision

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/controller/history"
)

// TestNewRevisionAnnotations: a new revision carries the owner's annotations, and
// they are no part of its identity (the same template with others is an equal
// revision, so reused as it is).
func TestNewRevisionAnnotations(t *testing.T) {
	owner := Owner{
		Object:   &metav1.ObjectMeta{Name: "cs", Namespace: "ns", UID: "u"},
		Kind:     appsv1.SchemeGroupVersion.WithKind("Deployment"),
		Template: &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}}},
	}
	a := owner
	annotationsA := map[string]string{"example.com/k": "1"}
	a.Annotations = func() map[string]string { return annotationsA }
	revA, err := newRevision(a, 1)
	if err != nil {
		t.Fatal(err)
	}
	if revA.Annotations["example.com/k"] != "1" {
		t.Errorf("annotations %v, want example.com/k=1", revA.Annotations)
	}
	b := owner
	b.Annotations = func() map[string]string { return map[string]string{"example.com/k": "2"} }
	revB, err := newRevision(b, 2)
	if err != nil {
		t.Fatal(err)
	}
	if revA.Name != revB.Name || len(history.FindEqualRevisions([]*appsv1.ControllerRevision{revA}, revB)) != 1 {
		t.Errorf("revisions of one template with other annotations differ: %s, %s", revA.Name, revB.Name)
	}
	annotationsA["example.com/k"] = "changed"
	if revA.Annotations["example.com/k"] != "1" {
		t.Error("the revision shares the owner's annotation map")
	}
	plain, err := newRevision(owner, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Annotations) != 0 {
		t.Errorf("annotations %v on a revision of an owner without any", plain.Annotations)
	}
}

// TestSyncAnnotatesCreatedRevisionsOnly: Sync asks for the owner's annotations only
// when it creates a revision (they may cost a hash per call), and writes them on it.
func TestSyncAnnotatesCreatedRevisionsOnly(t *testing.T) {
	revisions := informers.NewSharedInformerFactory(fake.NewClientset(), 0).Apps().V1().ControllerRevisions()
	h := history.NewFakeHistory(revisions)
	calls := 0
	owner := Owner{
		Object:      &metav1.ObjectMeta{Name: "cs", Namespace: "ns", UID: "u"},
		Kind:        appsv1.SchemeGroupVersion.WithKind("Deployment"),
		Template:    &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}}},
		Annotations: func() map[string]string { calls++; return map[string]string{"example.com/k": "1"} },
	}
	created, err := Sync(h, owner, nil, sets.New[string]())
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || created.Update.Annotations["example.com/k"] != "1" {
		t.Errorf("created revision: annotations %v after %d calls, want example.com/k=1 after 1", created.Update.Annotations, calls)
	}
	again, err := Sync(h, owner, created.Revisions, sets.New[string]())
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || again.Update.Name != created.Update.Name {
		t.Errorf("second sync: revision %s (want %s), %d calls to Annotations (want 1)", again.Update.Name, created.Update.Name, calls)
	}
}
