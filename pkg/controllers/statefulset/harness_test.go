package statefulset

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podindex"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// harness runs the controller's sync against fake clients. The informer caches are
// never started: refresh copies what the fake API holds into them, so a test decides
// exactly how stale the cache is when a sync runs.
type harness struct {
	t         *testing.T
	kube      *kubefake.Clientset
	kruise    *kruisefake.Clientset
	kubeInf   kubeinformers.SharedInformerFactory
	kruiseInf kruiseinformers.SharedInformerFactory
	c         *Controller
	recorder  *record.FakeRecorder
	now       time.Time
}

func newHarness(t *testing.T, set *v1beta1.StatefulSet, objs ...runtime.Object) *harness {
	t.Helper()
	v1beta1.SetObjectDefaults_StatefulSet(set)
	h := &harness{
		t:        t,
		kube:     kubefake.NewClientset(objs...),
		kruise:   kruisefake.NewSimpleClientset(set),
		recorder: record.NewFakeRecorder(1000),
		now:      time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	h.kubeInf = kubeinformers.NewSharedInformerFactory(h.kube, 0)
	h.kruiseInf = kruiseinformers.NewSharedInformerFactory(h.kruise, 0)
	if err := podindex.Add(h.kubeInf.Core().V1().Pods().Informer()); err != nil {
		t.Fatal(err)
	}
	ctrl, err := New(context.Background(), &manager.ControllerContext{
		KubeClient: h.kube, KruiseClient: h.kruise, KubeInformers: h.kubeInf, KruiseInformers: h.kruiseInf,
		Recorder: func(string) record.EventRecorder { return h.recorder }, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.c = ctrl.(*Controller)
	h.c.now = func() time.Time { return h.now }
	h.refresh()
	return h
}

// refresh makes the caches show what the fake API holds.
func (h *harness) refresh() {
	h.t.Helper()
	ctx := context.Background()
	replace := func(inf cache.SharedIndexInformer, list []runtime.Object) {
		if err := inf.GetStore().Replace(toInterfaces(list), ""); err != nil {
			h.t.Fatal(err)
		}
	}
	pods, _ := h.kube.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	claims, _ := h.kube.CoreV1().PersistentVolumeClaims("").List(ctx, metav1.ListOptions{})
	revs, _ := h.kube.AppsV1().ControllerRevisions("").List(ctx, metav1.ListOptions{})
	sets, _ := h.kruise.AppsV1beta1().StatefulSets("").List(ctx, metav1.ListOptions{})
	var p, cl, r, s []runtime.Object
	for i := range pods.Items {
		p = append(p, &pods.Items[i])
	}
	for i := range claims.Items {
		cl = append(cl, &claims.Items[i])
	}
	for i := range revs.Items {
		r = append(r, &revs.Items[i])
	}
	for i := range sets.Items {
		s = append(s, &sets.Items[i])
	}
	replace(h.kubeInf.Core().V1().Pods().Informer(), p)
	replace(h.kubeInf.Core().V1().PersistentVolumeClaims().Informer(), cl)
	replace(h.kubeInf.Apps().V1().ControllerRevisions().Informer(), r)
	replace(h.kruiseInf.Apps().V1beta1().StatefulSets().Informer(), s)
}

func toInterfaces(objs []runtime.Object) []interface{} {
	out := make([]interface{}, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

// sync runs one sync of the set "web" in namespace "ns" and returns the write
// actions it made (reads and watches left out).
func (h *harness) sync() []string {
	h.t.Helper()
	before := len(h.kube.Actions()) + len(h.kruise.Actions())
	kubeBefore := len(h.kube.Actions())
	if _, err := h.c.sync(context.Background(), "ns/web"); err != nil {
		h.t.Logf("sync: %v", err)
	}
	var out []string
	for _, a := range h.kube.Actions()[kubeBefore:] {
		out = append(out, describe(a)...)
	}
	for _, a := range h.kruise.Actions()[before-kubeBefore:] {
		out = append(out, describe(a)...)
	}
	return out
}

func describe(a clienttesting.Action) []string {
	if a.GetVerb() == "get" || a.GetVerb() == "list" || a.GetVerb() == "watch" {
		return nil
	}
	res := a.GetResource().Resource
	if a.GetSubresource() != "" {
		res += "/" + a.GetSubresource()
	}
	name := ""
	switch act := a.(type) {
	case clienttesting.CreateAction:
		if m, err := meta(act.GetObject()); err == nil {
			name = m
		}
	case clienttesting.DeleteAction:
		name = act.GetName()
	case clienttesting.PatchAction:
		name = act.GetName()
	case clienttesting.UpdateAction:
		if m, err := meta(act.GetObject()); err == nil {
			name = m
		}
	}
	return []string{fmt.Sprintf("%s %s %s", a.GetVerb(), res, name)}
}

func meta(obj runtime.Object) (string, error) {
	m, err := metaAccessor(obj)
	if err != nil {
		return "", err
	}
	return m.GetName(), nil
}

func metaAccessor(obj runtime.Object) (metav1.Object, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no metadata", obj)
	}
	return m, nil
}

// pod returns the pod of the fake API, failing the test if it is missing.
func (h *harness) pod(name string) *corev1.Pod {
	h.t.Helper()
	p, err := h.kube.CoreV1().Pods("ns").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// kubelet makes pods Running and Ready (with their readiness gates), as a kubelet
// and the scheduler would, and finishes deletions.
func (h *harness) kubelet(names ...string) {
	h.t.Helper()
	for _, name := range names {
		p := h.pod(name)
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(h.now)}}
		for _, g := range p.Spec.ReadinessGates {
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: g.ConditionType, Status: corev1.ConditionTrue})
		}
		p.Status.ContainerStatuses = nil
		for _, c := range p.Spec.Containers {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: c.Name, Image: c.Image, ImageID: c.Image + "@sha256:1", Ready: true,
			})
		}
		if _, err := h.kube.CoreV1().Pods("ns").UpdateStatus(context.Background(), p, metav1.UpdateOptions{}); err != nil {
			h.t.Fatal(err)
		}
	}
}

// webSet is a set "web" in namespace "ns" of nginx pods, edited by the test.
func webSet(replicas int32, edit func(*v1beta1.StatefulSet)) *v1beta1.StatefulSet {
	set := &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "set-uid", Generation: 1},
		Spec: v1beta1.StatefulSetSpec{
			Replicas:    ptr.To(replicas),
			ServiceName: "nginx",
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.25"}}},
			},
		},
	}
	if edit != nil {
		edit(set)
	}
	return set
}

func hasPrefix(actions []string, prefix string) int {
	n := 0
	for _, a := range actions {
		if strings.HasPrefix(a, prefix) {
			n++
		}
	}
	return n
}
