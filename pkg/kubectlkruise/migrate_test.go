package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
)

func migrateDeployment() *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	unav, surge := intstr.FromInt32(1), intstr.FromInt32(0)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: testNS, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &unav, MaxSurge: &surge}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
		Status: appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3},
	}
}

// settledControllers makes reads report every pod of the desired replicas as existing
// and available, as if the controllers acted at once, and records the replicas of
// both workloads after every write.
func settledControllers(kube *kubefake.Clientset, kc *kruisefake.Clientset, writes *[]string) {
	kube.PrependReactor("get", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
		obj, err := kube.Tracker().Get(a.GetResource(), a.GetNamespace(), a.(clienttesting.GetAction).GetName())
		if err != nil {
			return true, nil, err
		}
		d := obj.(*appsv1.Deployment).DeepCopy()
		n := ptr.Deref(d.Spec.Replicas, 1)
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: n, UpdatedReplicas: n, AvailableReplicas: n}
		return true, d, nil
	})
	kc.PrependReactor("get", "clonesets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		obj, err := kc.Tracker().Get(a.GetResource(), a.GetNamespace(), a.(clienttesting.GetAction).GetName())
		if err != nil {
			return true, nil, err
		}
		cs := obj.(*v1alpha1.CloneSet).DeepCopy()
		n := ptr.Deref(cs.Spec.Replicas, 1)
		cs.Status = v1alpha1.CloneSetStatus{ObservedGeneration: cs.Generation, Replicas: n, AvailableReplicas: n}
		return true, cs, nil
	})
	record := func(a clienttesting.Action) (bool, runtime.Object, error) {
		*writes = append(*writes, a.GetResource().Resource+" "+string(a.(clienttesting.PatchAction).GetPatch()))
		return false, nil, nil
	}
	kube.PrependReactor("patch", "deployments", record)
	kc.PrependReactor("patch", "clonesets", record)
}

// migrate creates the CloneSet from the Deployment's template, then moves the pods one
// at a time (maxUnavailable 1, no surge), CloneSet first in each step, and ends with
// the Deployment at zero.
func TestMigrateWithFakeClients(t *testing.T) {
	dep := migrateDeployment()
	kube := kubefake.NewClientset(dep)
	// The simple clientset: the field-managed one has no schema for our kinds.
	kc := kruisefake.NewSimpleClientset()
	var writes []string
	settledControllers(kube, kc, &writes)
	var out bytes.Buffer
	m := &migration{clients: &Clients{Kube: kube, Kruise: kc}, dep: dep, out: &out, interval: time.Millisecond}
	if err := m.limits("", ""); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := m.prepare(ctx, "web", cmdutil.DryRunNone, namePrinter(t, "created")); err != nil {
		t.Fatal(err)
	}
	cs, err := kc.AppsV1alpha1().CloneSets(testNS).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if *cs.Spec.Replicas != 0 || cs.Spec.Template.Spec.Containers[0].Image != "nginx:1.25" || cs.Spec.Selector.MatchLabels["app"] != "web" {
		t.Fatalf("created CloneSet = %+v", cs.Spec)
	}
	if err := m.run(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`clonesets {"spec":{"replicas":1}}`, `deployments {"spec":{"replicas":2}}`,
		`clonesets {"spec":{"replicas":2}}`, `deployments {"spec":{"replicas":1}}`,
		`clonesets {"spec":{"replicas":3}}`, `deployments {"spec":{"replicas":0}}`,
	}
	if strings.Join(writes, "\n") != strings.Join(want, "\n") {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(writes, "\n"), strings.Join(want, "\n"))
	}
	mustHave := "deployment/web migrated to cloneset.apps.kruise.io/web: 3 pods available"
	if !strings.Contains(out.String(), mustHave) {
		t.Errorf("output lacks %q:\n%s", mustHave, out.String())
	}

	// Run again: the CloneSet is the migration's own, so it goes on (and is done).
	out.Reset()
	m2 := &migration{clients: m.clients, dep: dep, out: &out, interval: time.Millisecond}
	if err := m2.limits("", ""); err != nil {
		t.Fatal(err)
	}
	if err := m2.prepare(ctx, "web", cmdutil.DryRunNone, namePrinter(t, "created")); err != nil {
		t.Fatal(err)
	}
	if m2.total != 3 {
		t.Errorf("resumed total = %d, want the 3 recorded at the start", m2.total)
	}
}

// A CloneSet of that name that the migration did not create is refused, and a client
// dry run writes nothing.
func TestMigratePrepareRefusesAndDryRun(t *testing.T) {
	dep := migrateDeployment()
	other := &v1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "taken", Namespace: testNS}}
	kc := kruisefake.NewSimpleClientset(other)
	m := &migration{clients: &Clients{Kube: kubefake.NewClientset(dep), Kruise: kc}, dep: dep, out: &bytes.Buffer{}}
	if err := m.limits("", ""); err != nil {
		t.Fatal(err)
	}
	err := m.prepare(context.Background(), "taken", cmdutil.DryRunNone, namePrinter(t, "created"))
	if err == nil || !strings.Contains(err.Error(), `cloneset "taken" already exists and was not created by migrating deployment "web"`) {
		t.Errorf("err = %v", err)
	}
	kc.ClearActions()
	var out bytes.Buffer
	m.out = &out
	p, err := cmdutil.PrintFlagsWithDryRunStrategy(namePrintFlags("created"), cmdutil.DryRunClient).ToPrinter()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.prepare(context.Background(), "web", cmdutil.DryRunClient, p); err != nil {
		t.Fatal(err)
	}
	for _, a := range kc.Actions() {
		if a.GetVerb() != "get" {
			t.Errorf("client dry run wrote: %v", a)
		}
	}
	if out.String() != "cloneset.apps.kruise.io/web created (dry run)\n" {
		t.Errorf("output %q", out.String())
	}
}

// limits resolve as the Deployment controller resolves them.
func TestMigrateLimits(t *testing.T) {
	for _, tc := range []struct {
		replicas     int32
		unav, surge  string
		flagU, flagS string
		wantU, wantS int32
		recreate     bool
	}{
		{replicas: 10, unav: "25%", surge: "25%", wantU: 2, wantS: 3},
		{replicas: 3, unav: "0", surge: "0", wantU: 1, wantS: 0},
		{replicas: 4, unav: "1", surge: "0", flagU: "50%", flagS: "1", wantU: 2, wantS: 1},
		{replicas: 5, recreate: true, wantU: 5, wantS: 0},
	} {
		d := migrateDeployment()
		d.Spec.Replicas = &tc.replicas
		if tc.recreate {
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		} else {
			u, s := intstr.Parse(tc.unav), intstr.Parse(tc.surge)
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: &u, MaxSurge: &s}
		}
		m := &migration{dep: d}
		if err := m.limits(tc.flagU, tc.flagS); err != nil {
			t.Fatal(err)
		}
		if m.maxUnav != tc.wantU || m.maxSurge != tc.wantS {
			t.Errorf("%+v: maxUnavailable=%d maxSurge=%d, want %d %d", tc, m.maxUnav, m.maxSurge, tc.wantU, tc.wantS)
		}
	}
}
