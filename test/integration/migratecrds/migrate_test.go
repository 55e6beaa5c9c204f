package migratecrds

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/kubectlkruise/crdmove"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// drainWait stands in for --crd-drain-wait's default (twice kube-apiserver's
// --request-timeout): apiextensions-apiserver tears a CRD's old storage down 1 s after
// its spec changed once the short requests on it are done, and nothing else sends it
// requests here once the APIServices are switched.
const drainWait = "3s"

func (e *env) migrateArgs() []string {
	return []string{"migrate-from-crds", "--kruise-apiserver=" + e.kruiseURL, "--ca-bundle=" + e.caFile,
		"--tls-server-name=kruise-apiserver.kruise-system.svc", "--service=kruise-system/kruise-apiserver",
		fmt.Sprintf("--service-port=%d", e.c.Ports["kruise-apiserver"]), "--crd-drain-wait=" + drainWait}
}

// kk runs `kubectl kruise ARGS` with _output/bin first on PATH, as a user runs it.
func (e *env) kk(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(e.c.BinDir, "kubectl"), append(append([]string{"kruise"}, args...), "--kubeconfig="+e.c.Kubeconfig)...)
	cmd.Env = append(os.Environ(), "PATH="+e.c.BinDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// assertServedByKruise checks that every object of the stand-in is served through
// kube-apiserver by kruise-apiserver (the APIServices point at it, the CRDs are gone)
// with its original UID.
func (e *env) assertServedByKruise(t *testing.T, ns string, st *standIn) {
	t.Helper()
	ctx := context.Background()
	for _, name := range framework.KruiseAPIServices {
		a, err := e.c.Dynamic.Resource(apiServiceGVR).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("APIService %s: %v", name, err)
		}
		if svc, _, _ := unstructured.NestedString(a.Object, "spec", "service", "name"); svc != "kruise-apiserver" {
			t.Errorf("APIService %s points at %q, want kruise-apiserver", name, svc)
		}
	}
	for key, uid := range st.uids {
		resource, name, _ := strings.Cut(key, "/")
		objNS := ns
		if resource == "sidecarsets" {
			objNS = ""
		}
		got, err := e.c.Dynamic.Resource(gvr(resource)).Namespace(objNS).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		if string(got.GetUID()) != uid {
			t.Errorf("%s: uid %s, want the original %s", key, got.GetUID(), uid)
		}
		direct, err := e.kruise.Resource(gvr(resource)).Namespace(objNS).Get(ctx, name, metav1.GetOptions{})
		if err != nil || direct.GetResourceVersion() == "" {
			t.Errorf("%s: not in kruise-apiserver: %v", key, err)
		}
	}
	crds, err := e.c.Dynamic.Resource(crdGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range crds.Items {
		if g, _, _ := unstructured.NestedString(c.Object, "spec", "group"); strings.HasSuffix(g, "kruise.io") {
			t.Errorf("CRD %s still there", c.GetName())
		}
	}
}

// cleanupCluster removes what outlives the namespace: the finalizer the test put on,
// the cluster-scoped SidecarSets.
func (e *env) cleanupCluster(t *testing.T, ns string, st *standIn, finalizer bool) {
	ctx := context.Background()
	if finalizer {
		patch := []byte(`{"metadata":{"finalizers":null}}`)
		if _, err := e.c.Dynamic.Resource(gvr("clonesets")).Namespace(ns).Patch(ctx, "cs-0", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Errorf("removing the finalizer: %v", err)
		}
	}
	for key := range st.uids {
		if resource, name, _ := strings.Cut(key, "/"); resource == "sidecarsets" {
			_ = e.c.Dynamic.Resource(gvr(resource)).Delete(ctx, name, metav1.DeleteOptions{})
		}
	}
}

// TestMigrateFromCRDs moves the cluster: 20 CloneSets, 5 Advanced StatefulSets,
// 5 Advanced DaemonSets, 2 SidecarSets, 2 UnitedDeployments, a PodUnavailableBudget and
// a WorkloadSpread with their pods (285 on 3 nodes), with the plugin as a user runs it.
// A watch over the whole migration sees no pod deleted, recreated or restarted; every
// object is served by kruise-apiserver with its original UID; kruise-controller, started
// after, adopts the pods as they are; an image change then rolls the CloneSets in place.
// registerHook runs the chart's post-install hook (kruise-controller install-hook
// register-apiservices) against the stand-in cluster, as the chart's Job would with
// installHooks.whenCRDsServe=mode.
func (e *env) registerHook(t *testing.T, mode string) (string, error) {
	t.Helper()
	var manifests strings.Builder
	for _, name := range framework.KruiseAPIServices {
		version, group, _ := strings.Cut(name, ".")
		fmt.Fprintf(&manifests, "---\napiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: %s}\n"+
			"spec: {group: %s, version: %s, groupPriorityMinimum: 1000, versionPriority: 100, service: {namespace: kruise-system, name: kruise-apiserver}}\n", name, group, version)
	}
	file := filepath.Join(t.TempDir(), "apiservices.yaml")
	if err := os.WriteFile(file, []byte(manifests.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(e.c.BinDir, "kruise-controller"), "install-hook", "register-apiservices",
		"--kubeconfig="+e.c.Kubeconfig, "--apiservices="+file, "--timeout=20s", "--when-crds-serve="+mode).CombinedOutput()
	return string(out), err
}

// assertAPIServicesLocal fails the test unless every Kruise APIService is still absent
// (no CRD serves its version) or kube-aggregator's local one for the CRDs.
func (e *env) assertAPIServicesLocal(t *testing.T, when string) {
	t.Helper()
	for _, name := range framework.KruiseAPIServices {
		a, err := e.c.Dynamic.Resource(apiServiceGVR).Get(context.Background(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: APIService %s: %v", when, name, err)
		}
		if _, found, _ := unstructured.NestedMap(a.Object, "spec", "service"); found || a.GetLabels()["kube-aggregator.kubernetes.io/automanaged"] != "true" {
			t.Fatalf("%s changed APIService %s: %v", when, name, a.Object["spec"])
		}
	}
}

func TestMigrateFromCRDs(t *testing.T) {
	e := newEnv(t)
	e.becomeOpenKruise(t)

	// The chart installed beside OpenKruise: its post-install hook registers nothing,
	// failing the release by default and succeeding with whenCRDsServe=leave.
	if out, err := e.registerHook(t, "fail"); err == nil || !strings.Contains(out, "migrate-from-crds") {
		t.Fatalf("register hook (fail) beside the CRDs: err %v, want a refusal naming migrate-from-crds:\n%s", err, out)
	}
	if out, err := e.registerHook(t, "leave"); err != nil {
		t.Fatalf("register hook (leave) beside the CRDs: %v\n%s", err, out)
	}
	e.assertAPIServicesLocal(t, "the register hook")
	ns := e.c.CreateNamespace(t)
	sz := sizes{CloneSets: 20, CloneSetPods: 11, StatefulSets: 5, StatefulSetPods: 10, DaemonSets: 5,
		SidecarSets: 2, UnitedDeployments: 2, PUB: true, WorkloadSpread: true, Finalizer: "example.com/keep"}
	start := time.Now()
	st := e.populate(t, ns, sz)
	t.Cleanup(func() { e.cleanupCluster(t, ns, st, true) })
	t.Logf("stand-in OpenKruise cluster: %d objects, %d pods running, in %s", len(st.uids), len(st.pods), time.Since(start).Round(time.Second))

	w := watchPods(t, e.c, ns)
	probe := probeServed(e.c.Dynamic, st.uids, ns)

	out, err := e.kk(t, append(e.migrateArgs(), "--dry-run")...)
	t.Logf("--dry-run:\n%s", out)
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if !strings.Contains(out, "clonesets.apps.kruise.io") || !strings.Contains(out, "kruise-apiserver accepts every object") {
		t.Fatalf("the plan lacks the CloneSets or the validation line")
	}
	if a, _ := e.c.Dynamic.Resource(apiServiceGVR).Get(context.Background(), "v1beta1.apps.kruise.io", metav1.GetOptions{}); a == nil || a.GetLabels()["kube-aggregator.kubernetes.io/automanaged"] != "true" {
		t.Fatalf("--dry-run changed the APIService: %v", a)
	}

	start = time.Now()
	out, err = e.kk(t, e.migrateArgs()...)
	t.Logf("migration (%s):\n%s", time.Since(start).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("migration: %v", err)
	}
	probe.stop()
	t.Logf("served during the migration: %s", probe)
	if probe.notFound > 0 || probe.wrongUID > 0 {
		t.Errorf("an owner was missing or another object during the migration: %s", probe)
	}
	e.assertServedByKruise(t, ns, st)
	if d := w.disturbed(true); d != "" {
		t.Fatalf("pods disturbed by the migration: %s", d)
	}

	// kruise-controller takes over: it finds the revisions and pods OpenKruise left and
	// agrees that every pod is up to date.
	e.c.StartComponent(t, "kruise-controller")
	e.c.WaitKruiseControllerReady(t, 2*time.Minute)
	ctx := context.Background()
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		for _, name := range st.cloneSets {
			cs, err := e.c.Dynamic.Resource(gvr("clonesets")).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			obs, _, _ := unstructured.NestedInt64(cs.Object, "status", "observedGeneration")
			upd, _, _ := unstructured.NestedInt64(cs.Object, "status", "updatedReplicas")
			if obs != cs.GetGeneration() || upd != int64(sz.CloneSetPods) {
				return false, fmt.Errorf("cloneset %s: observedGeneration %d of %d, updatedReplicas %d", name, obs, cs.GetGeneration(), upd)
			}
		}
		// the UnitedDeployments keep the subset CloneSets OpenKruise made (same
		// names and UIDs: found by their subset label, not replaced)
		for i := 0; i < sz.UnitedDeployments; i++ {
			ud, err := e.c.Dynamic.Resource(gvr("uniteddeployments")).Namespace(ns).Get(ctx, fmt.Sprintf("ud-%d", i), metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if obs, _, _ := unstructured.NestedInt64(ud.Object, "status", "observedGeneration"); obs != ud.GetGeneration() {
				return false, fmt.Errorf("uniteddeployment %s: observedGeneration %d of %d", ud.GetName(), obs, ud.GetGeneration())
			}
		}
		// the SidecarSets find the pods OpenKruise injected them into up to date
		for name, n := range st.sidecarPods {
			ss, err := e.c.Dynamic.Resource(gvr("sidecarsets")).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			matched, _, _ := unstructured.NestedInt64(ss.Object, "status", "matchedPods")
			updated, _, _ := unstructured.NestedInt64(ss.Object, "status", "updatedPods")
			if matched != int64(n) || updated != int64(n) {
				return false, fmt.Errorf("sidecarset %s: %d matched, %d updated, want %d of %d", name, matched, updated, n, n)
			}
		}
		list, err := e.c.Dynamic.Resource(gvr("clonesets")).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: "apps.kruise.io/subset-name"})
		if err != nil {
			return false, err
		}
		have := map[string]string{}
		for _, cs := range list.Items {
			have[cs.GetName()] = string(cs.GetUID())
			if upd, _, _ := unstructured.NestedInt64(cs.Object, "status", "updatedReplicas"); upd != udSubsetPods {
				return false, fmt.Errorf("subset cloneset %s: updatedReplicas %d", cs.GetName(), upd)
			}
		}
		for _, name := range st.udSubsets {
			if have[name] != st.uids["clonesets/"+name] || len(have) != len(st.udSubsets) {
				return false, fmt.Errorf("subset clonesets %v, want %v with their UIDs", have, st.udSubsets)
			}
		}
		return true, nil
	})
	// and leaves them alone for a while
	framework.Consistently(t, 10*time.Second, func() (bool, string) {
		d := w.disturbed(true)
		return d == "", d
	})

	// an image change rolls every CloneSet in place: same pods, restartCount +1
	for _, name := range st.cloneSets {
		patch := []byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`)
		if _, err := e.c.Dynamic.Resource(gvr("clonesets")).Namespace(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatalf("image change of %s: %v", name, err)
		}
	}
	framework.WaitFor(t, 5*time.Minute, func() (bool, error) {
		pods, err := e.c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "apps.kruise.io/cloneset-instance-id,!apps.kruise.io/subset-name"})
		if err != nil {
			return false, err
		}
		done := 0
		for i := range pods.Items {
			p := &pods.Items[i]
			if p.Spec.Containers[0].Image == "nginx:1.26" && restartCount(p) == 1 && p.Status.Phase == corev1.PodRunning {
				done++
			}
		}
		want := sz.CloneSets * sz.CloneSetPods
		if done != want {
			return false, fmt.Errorf("%d of %d CloneSet pods updated in place", done, want)
		}
		return true, nil
	})
	if d := w.disturbed(false); d != "" {
		t.Fatalf("pods deleted or recreated: %s", d)
	}
	w.stop()
	t.Logf("pod watch: %d events, no pod deleted, recreated or restarted by the migration", w.events)
}

// TestMigrateInterrupted kills the migration (in process: it stops as a kill would,
// without undoing) after every step and in the middle of the import and of the switch,
// rolls back once after the switch, and runs it again each time until it completes:
// no object lost (each is served, with its UID, by the CRDs or by kruise-apiserver at
// every stop), no pod disturbed, the finalizer kept.
func TestMigrateInterrupted(t *testing.T) {
	e := newEnv(t)
	e.becomeOpenKruise(t)
	ns := e.c.CreateNamespace(t)
	sz := sizes{CloneSets: 3, CloneSetPods: 2, StatefulSets: 1, StatefulSetPods: 2, DaemonSets: 1,
		SidecarSets: 1, UnitedDeployments: 1, PUB: true, WorkloadSpread: true, Finalizer: "example.com/keep"}
	st := e.populate(t, ns, sz)
	t.Cleanup(func() { e.cleanupCluster(t, ns, st, true) })
	w := watchPods(t, e.c, ns)
	probe := probeServed(e.c.Dynamic, st.uids, ns)
	defer probe.stop()

	ca, err := os.ReadFile(e.caFile)
	if err != nil {
		t.Fatal(err)
	}
	o := &crdmove.Options{
		KruiseAPIServer: e.kruiseURL, CABundle: ca, TLSServerName: "kruise-apiserver.kruise-system.svc",
		ServiceNamespace: "kruise-system", ServiceName: "kruise-apiserver", ServicePort: int32(e.c.Ports["kruise-apiserver"]),
		Groups: []string{"apps.kruise.io", "policy.kruise.io"}, DrainWait: 3 * time.Second, Timeout: 2 * time.Minute,
		Out: testWriter{t},
	}
	clients, err := crdmove.NewClients(e.c.Config, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, stop := range []string{"freeze", "import:1", "import:5", "import", "release", "switch:1", "switch", "rollback", "unserve", "drain", "unfreeze", ""} {
		if stop == "rollback" {
			if err := crdmove.Rollback(ctx, clients, o); err != nil {
				t.Fatalf("rollback: %v", err)
			}
			e.assertServedByCRDs(t, ns, st)
			continue
		}
		step, n, _ := strings.Cut(stop, ":")
		o.Interrupt = func(s string, i int) bool {
			if n == "" {
				return s == step && i == -1
			}
			return s == step && fmt.Sprint(i) == n
		}
		err := crdmove.Run(ctx, clients, o)
		switch {
		case stop == "" && err != nil:
			t.Fatalf("the last run: %v", err)
		case stop != "" && !errors.Is(err, crdmove.ErrInterrupted):
			t.Fatalf("run to be killed at %s: %v", stop, err)
		}
		t.Logf("killed at %q: %s", stop, probe)
		if probe.notFound > 0 || probe.wrongUID > 0 {
			t.Fatalf("an object was lost after a kill at %s: %s", stop, probe)
		}
		if d := w.disturbed(true); d != "" {
			t.Fatalf("pods disturbed after a kill at %s: %s", stop, d)
		}
	}
	e.assertServedByKruise(t, ns, st)
	cs, err := e.c.Dynamic.Resource(gvr("clonesets")).Namespace(ns).Get(ctx, "cs-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f := cs.GetFinalizers(); len(f) != 1 || f[0] != sz.Finalizer {
		t.Errorf("cs-0 finalizers %v, want [%s]", f, sz.Finalizer)
	}
	if _, ok := cs.GetAnnotations()["kruise-native.io/migration-finalizers"]; ok {
		t.Errorf("cs-0 kept the migration's annotation: %v", cs.GetAnnotations())
	}
	if _, err := e.c.Client.AdmissionregistrationV1().ValidatingAdmissionPolicies().Get(ctx, "kruise-native-migration-freeze", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the freeze policy is still there: %v", err)
	}
	e.c.StartComponent(t, "kruise-controller")
	e.c.WaitKruiseControllerReady(t, 2*time.Minute)
}

// assertServedByCRDs checks the rollback: the APIServices are local again, every object
// is served (by its CRD) with its UID and the finalizer is back on the CRD copy.
func (e *env) assertServedByCRDs(t *testing.T, ns string, st *standIn) {
	t.Helper()
	ctx := context.Background()
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		a, err := e.c.Dynamic.Resource(apiServiceGVR).Get(ctx, "v1beta1.apps.kruise.io", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		_, hasService, _ := unstructured.NestedMap(a.Object, "spec", "service")
		if hasService {
			return false, fmt.Errorf("APIService v1beta1.apps.kruise.io still points at a service")
		}
		return true, nil
	})
	cs, err := e.crds.Resource(gvr("clonesets")).Namespace(ns).Get(ctx, "cs-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.GetFinalizers()) != 1 {
		t.Errorf("after the rollback, cs-0 in its CRD has finalizers %v", cs.GetFinalizers())
	}
	if string(cs.GetUID()) != st.uids["clonesets/cs-0"] {
		t.Errorf("after the rollback, cs-0 has uid %s, want %s", cs.GetUID(), st.uids["clonesets/cs-0"])
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
