package migratecrds

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/kubernetes/pkg/controller/history"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/revisiondata"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

var (
	crdGVR        = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

func gvr(resource string) schema.GroupVersionResource {
	group := "apps.kruise.io"
	if resource == "podunavailablebudgets" {
		group = "policy.kruise.io"
	}
	return schema.GroupVersionResource{Group: group, Version: "v1beta1", Resource: resource}
}

// storedV1alpha1: the kinds kruise-controller reads in v1alpha1; their CRDs store that
// version. The others store v1beta1 (the CRDs convert with None: one version's objects
// are read back in the version they were written in).
var storedV1alpha1 = map[string]bool{"nodeimages": true, "imagepulljobs": true, "imagelistpulljobs": true, "containerrecreaterequests": true, "resourcedistributions": true}

// env is a test's handle on the stack and kruise-apiserver reached directly.
type env struct {
	c                 *framework.Cluster
	kruise            dynamic.Interface // kruise-apiserver directly (it is not registered yet)
	crds              dynamic.Interface // kube-apiserver
	kruiseURL, caFile string
	// namespaced tells, by resource, whether kruise-apiserver serves it namespaced
	namespaced map[string]bool
}

func newEnv(t *testing.T) *env {
	t.Helper()
	c := framework.Get(t)
	e := &env{c: c, crds: c.Dynamic,
		kruiseURL: fmt.Sprintf("https://127.0.0.1:%d", c.Ports["kruise-apiserver"]),
		caFile:    c.Stack.PKI("kruise-ca.crt")}
	cfg := rest.CopyConfig(c.Config)
	cfg.Host = e.kruiseURL
	cfg.TLSClientConfig.CAFile, cfg.TLSClientConfig.CAData = e.caFile, nil
	cfg.TLSClientConfig.ServerName = "kruise-apiserver.kruise-system.svc"
	var err error
	if e.kruise, err = dynamic.NewForConfig(cfg); err != nil {
		t.Fatal(err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, lists, err := disc.ServerGroupsAndResources()
	if err != nil {
		t.Fatalf("kruise-apiserver discovery: %v", err)
	}
	e.namespaced = map[string]bool{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			e.namespaced[r.Name] = r.Namespaced
		}
	}
	return e
}

// becomeOpenKruise turns the stack into the stand-in: kruise-controller stopped,
// kruise-apiserver unregistered, the Kruise CRDs installed and Established.
func (e *env) becomeOpenKruise(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	e.c.StopComponent(t, "kruise-controller")
	for _, name := range framework.KruiseAPIServices {
		err := e.c.Dynamic.Resource(apiServiceGVR).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("delete APIService %s: %v", name, err)
		}
	}
	// gone, or (CRDs left by an earlier test) kube-aggregator's local ones again
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, name := range framework.KruiseAPIServices {
			a, err := e.c.Dynamic.Resource(apiServiceGVR).Get(ctx, name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return false, err
			}
			if _, found, _ := unstructured.NestedMap(a.Object, "spec", "service"); found {
				return false, fmt.Errorf("APIService %s still points at kruise-apiserver", name)
			}
		}
		return true, nil
	})
	e.installCRDs(t)
}

var (
	crdsOnce sync.Once
	crdsDir  string
	crdsErr  error
)

// installCRDs generates the CRDs from our v1alpha1/v1beta1 types with controller-gen (as
// the benchmark does, in the real groups; without descriptions: the UnitedDeployment
// CRD would exceed etcd's request size), with the status and scale subresources
// OpenKruise's CRDs have, creates them and waits until each is Established.
func (e *env) installCRDs(t *testing.T) {
	t.Helper()
	crdsOnce.Do(func() {
		if crdsDir, crdsErr = os.MkdirTemp("", "kruise-crds-"); crdsErr != nil {
			return
		}
		cmd := exec.Command(filepath.Join(e.c.BinDir, "controller-gen"), "crd:generateEmbeddedObjectMeta=true,maxDescLen=0",
			"paths=./pkg/apis/apps/v1beta1", "paths=./pkg/apis/policy/v1beta1", "output:crd:dir="+crdsDir)
		cmd.Dir = e.c.Root
		// exits non-zero as no version is marked as the storage one: set below
		out, _ := cmd.CombinedOutput()
		if files, _ := filepath.Glob(filepath.Join(crdsDir, "*.yaml")); len(files) < 14 {
			crdsErr = fmt.Errorf("controller-gen wrote %d CRDs: %s", len(files), out)
		}
	})
	if crdsErr != nil {
		t.Fatal(crdsErr)
	}
	files, _ := filepath.Glob(filepath.Join(crdsDir, "*.yaml"))
	ctx := context.Background()
	var names []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(raw, &obj); err != nil {
			t.Fatal(err)
		}
		crd := &unstructured.Unstructured{Object: obj}
		plural, _, _ := unstructured.NestedString(obj, "spec", "names", "plural")
		// the scope kruise-apiserver (and OpenKruise) gives the kind
		scope := "Namespaced"
		if !e.namespaced[plural] {
			scope = "Cluster"
		}
		if err := unstructured.SetNestedField(obj, scope, "spec", "scope"); err != nil {
			t.Fatal(err)
		}
		storage := "v1beta1"
		if storedV1alpha1[plural] {
			storage = "v1alpha1"
		}
		versions, _, _ := unstructured.NestedSlice(obj, "spec", "versions")
		for _, v := range versions {
			m := v.(map[string]any)
			m["storage"] = m["name"] == storage
			sub := map[string]any{"status": map[string]any{}}
			if plural == "clonesets" || plural == "statefulsets" {
				sub["scale"] = map[string]any{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.labelSelector"}
			}
			m["subresources"] = sub
		}
		for _, v := range versions {
			requireMapKeys(v.(map[string]any)["schema"])
		}
		if err := unstructured.SetNestedSlice(obj, versions, "spec", "versions"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.crds.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("create CRD %s: %v", crd.GetName(), err)
		}
		names = append(names, crd.GetName())
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, n := range names {
			got, err := e.crds.Resource(crdGVR).Get(ctx, n, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
			ok := false
			for _, c := range conds {
				if m := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
					ok = true
				}
			}
			if !ok {
				return false, fmt.Errorf("CRD %s not Established", n)
			}
		}
		// and served: the aggregator's local APIService for the group/version is there
		_, err := e.crds.Resource(gvr("clonesets")).Namespace("default").List(ctx, metav1.ListOptions{Limit: 1})
		return err == nil, err
	})
}

// requireMapKeys makes the keys of every map-list required in its items, as
// apiextensions asks (controller-gen leaves a key optional where our Go type has
// omitempty on it).
func requireMapKeys(node any) {
	switch n := node.(type) {
	case map[string]any:
		if keys, ok := n["x-kubernetes-list-map-keys"].([]any); ok {
			if items, ok := n["items"].(map[string]any); ok {
				req, _ := items["required"].([]any)
				for _, k := range keys {
					found := false
					for _, r := range req {
						found = found || r == k
					}
					if !found {
						req = append(req, k)
					}
				}
				items["required"] = req
			}
		}
		for _, v := range n {
			requireMapKeys(v)
		}
	case []any:
		for _, v := range n {
			requireMapKeys(v)
		}
	}
}

// create makes an object the way it exists in an OpenKruise cluster: defaulted (by
// kruise-apiserver's defaulting in a dry run, as OpenKruise's defaulting webhook does it)
// and stored in the CRD.
func (e *env) create(t *testing.T, ns, resource, manifest string) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	obj := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &obj.Object); err != nil {
		t.Fatalf("%s: %v", manifest, err)
	}
	defaulted, err := e.kruise.Resource(gvr(resource)).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		t.Fatalf("defaulting %s %s: %v", resource, obj.GetName(), err)
	}
	for _, f := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"} {
		unstructured.RemoveNestedField(defaulted.Object, "metadata", f)
	}
	delete(defaulted.Object, "status")
	created, err := e.crds.Resource(gvr(resource)).Namespace(ns).Create(ctx, defaulted, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create %s %s in its CRD: %v", resource, obj.GetName(), err)
	}
	return created
}

func (e *env) setStatus(t *testing.T, resource string, obj *unstructured.Unstructured, status map[string]any) {
	t.Helper()
	obj.Object["status"] = status
	if _, err := e.crds.Resource(gvr(resource)).Namespace(obj.GetNamespace()).UpdateStatus(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("status of %s %s: %v", resource, obj.GetName(), err)
	}
}

// revision stores the ControllerRevision of a workload's template as OpenKruise's
// controllers (and ours) make it — revision 1, collision count 0 — and returns its name,
// the value of the pods' controller-revision-hash.
func (e *env) revision(t *testing.T, obj *unstructured.Unstructured, kind string, tmpl *corev1.PodTemplateSpec) string {
	t.Helper()
	data, err := revisiondata.Encode(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := history.NewControllerRevision(obj, v1beta1.SchemeGroupVersion.WithKind(kind), tmpl.Labels, runtime.RawExtension{Raw: data}, 1, ptr.To[int32](0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Client.AppsV1().ControllerRevisions(obj.GetNamespace()).Create(context.Background(), rev, metav1.CreateOptions{}); err != nil {
		t.Fatalf("revision of %s: %v", obj.GetName(), err)
	}
	return rev.Name
}

func ownerRef(obj *unstructured.Unstructured, apiVersion, kind string) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: obj.GetName(), UID: obj.GetUID(), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
}

func podFrom(ns, name string, tmpl *corev1.PodTemplateSpec, owner metav1.OwnerReference, node string) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{}, Annotations: tmpl.Annotations, OwnerReferences: []metav1.OwnerReference{owner}},
		Spec:       *tmpl.Spec.DeepCopy(),
	}
	for k, v := range tmpl.Labels {
		pod.Labels[k] = v
	}
	pod.Spec.NodeName = node
	return pod
}

// sizes of the stand-in cluster.
type sizes struct {
	CloneSets, CloneSetPods, StatefulSets, StatefulSetPods, DaemonSets int
	SidecarSets, UnitedDeployments                                     int
	PUB, WorkloadSpread                                                bool
	// Finalizer is put on the first CloneSet (and kept by the migration).
	Finalizer string
}

// standIn is what the test created, to compare with what is served after.
type standIn struct {
	// uids by "resource/name"
	uids map[string]string
	// pods by name: uid
	pods      map[string]string
	cloneSets []string
	// udSubsets are the UnitedDeployments' subset CloneSets
	udSubsets []string
	// sidecarPods counts the pods each SidecarSet was injected into
	sidecarPods map[string]int
}

const (
	inPlaceReadyGate = "InPlaceUpdateReady"
	image            = "nginx:1.25"
)

// populate creates the stand-in's objects in the CRDs and their pods, as OpenKruise's
// controllers leave them: ControllerRevisions owned by the workload, pods owned by it
// (ownerReferences by UID) with controller-revision-hash, CloneSet instance ids
// (<name>-<id>, apps.kruise.io/cloneset-instance-id), StatefulSet ordinals and pod-name
// labels, DaemonSet pods pinned to their node, and each workload's status.
func (e *env) populate(t *testing.T, ns string, sz sizes) *standIn {
	t.Helper()
	s := &standIn{uids: map[string]string{}, pods: map[string]string{}, sidecarPods: map[string]int{}}
	var pods []*corev1.Pod
	node := 0
	nextNode := func() string {
		n := fmt.Sprintf("kwok-node-%d", node%e.c.Nodes)
		node++
		return n
	}
	record := func(resource string, obj *unstructured.Unstructured) {
		s.uids[resource+"/"+obj.GetName()] = string(obj.GetUID())
	}
	for i := 0; i < sz.CloneSets; i++ {
		name := fmt.Sprintf("cs-%d", i)
		fin := ""
		if i == 0 && sz.Finalizer != "" {
			fin = fmt.Sprintf("\n  finalizers: [%q]", sz.Finalizer)
		}
		obj := e.create(t, ns, "clonesets", fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: CloneSet
metadata:
  name: %[1]s
  labels: {team: web}
  annotations: {owner.example.com/contact: ops}%[4]s
spec:
  replicas: %[2]d
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      readinessGates: [{conditionType: InPlaceUpdateReady}]
      containers: [{name: main, image: %[3]q}]
  updateStrategy: {type: RollingUpdate, rollingUpdate: {podUpdatePolicy: InPlaceIfPossible, maxUnavailable: 100%%}}
`, name, sz.CloneSetPods, image, fin))
		record("clonesets", obj)
		s.cloneSets = append(s.cloneSets, name)
		cs := &v1beta1.CloneSet{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, cs); err != nil {
			t.Fatal(err)
		}
		rev := e.revision(t, obj, "CloneSet", &cs.Spec.Template)
		used := map[string]bool{}
		for j := 0; j < sz.CloneSetPods; j++ {
			id := utilrand.String(5)
			for used[id] {
				id = utilrand.String(5)
			}
			used[id] = true
			pod := podFrom(ns, name+"-"+id, &cs.Spec.Template, ownerRef(obj, "apps.kruise.io/v1alpha1", "CloneSet"), nextNode())
			pod.Labels["controller-revision-hash"] = rev
			pod.Labels["apps.kruise.io/cloneset-instance-id"] = id
			pods = append(pods, pod)
		}
		n := int64(sz.CloneSetPods)
		e.setStatus(t, "clonesets", obj, map[string]any{
			"observedGeneration": obj.GetGeneration(), "replicas": n, "readyReplicas": n, "availableReplicas": n,
			"updatedReplicas": n, "updatedReadyReplicas": n, "expectedUpdatedReplicas": n,
			"updateRevision": rev, "currentRevision": rev, "collisionCount": int64(0), "labelSelector": "app=" + name,
		})
	}
	for i := 0; i < sz.StatefulSets; i++ {
		name := fmt.Sprintf("asts-%d", i)
		obj := e.create(t, ns, "statefulsets", fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata: {name: %[1]s}
spec:
  replicas: %[2]d
  serviceName: %[1]s
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      containers: [{name: main, image: %[3]q}]
`, name, sz.StatefulSetPods, image))
		record("statefulsets", obj)
		set := &v1beta1.StatefulSet{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, set); err != nil {
			t.Fatal(err)
		}
		rev := e.revision(t, obj, "StatefulSet", &set.Spec.Template)
		for j := 0; j < sz.StatefulSetPods; j++ {
			podName := fmt.Sprintf("%s-%d", name, j)
			pod := podFrom(ns, podName, &set.Spec.Template, ownerRef(obj, "apps.kruise.io/v1beta1", "StatefulSet"), nextNode())
			pod.Labels["controller-revision-hash"] = rev
			pod.Labels[appsv1.StatefulSetPodNameLabel] = podName
			pod.Labels[appsv1.PodIndexLabel] = fmt.Sprint(j)
			pod.Spec.Hostname, pod.Spec.Subdomain = podName, name
			pods = append(pods, pod)
		}
		n := int64(sz.StatefulSetPods)
		e.setStatus(t, "statefulsets", obj, map[string]any{
			"observedGeneration": obj.GetGeneration(), "replicas": n, "readyReplicas": n, "availableReplicas": n,
			"currentReplicas": n, "updatedReplicas": n, "updatedReadyReplicas": n,
			"currentRevision": rev, "updateRevision": rev, "collisionCount": int64(0), "labelSelector": "app=" + name,
		})
	}
	for i := 0; i < sz.DaemonSets; i++ {
		name := fmt.Sprintf("ads-%d", i)
		obj := e.create(t, ns, "daemonsets", fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: DaemonSet
metadata: {name: %[1]s}
spec:
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      containers: [{name: main, image: %[2]q}]
`, name, image))
		record("daemonsets", obj)
		ds := &v1beta1.DaemonSet{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, ds); err != nil {
			t.Fatal(err)
		}
		rev := e.revision(t, obj, "DaemonSet", &ds.Spec.Template)
		for j := 0; j < e.c.Nodes; j++ {
			nodeName := fmt.Sprintf("kwok-node-%d", j)
			pod := podFrom(ns, name+"-"+utilrand.String(5), &ds.Spec.Template, ownerRef(obj, "apps.kruise.io/v1alpha1", "DaemonSet"), nodeName)
			pod.Labels["controller-revision-hash"] = rev
			// pinned to its node as kube's (and OpenKruise's) DaemonSet controller pins it
			pod.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{nodeName}}}}},
			}}}
			pods = append(pods, pod)
		}
		n := int64(e.c.Nodes)
		e.setStatus(t, "daemonsets", obj, map[string]any{
			"observedGeneration": obj.GetGeneration(), "desiredNumberScheduled": n, "currentNumberScheduled": n,
			"numberReady": n, "numberAvailable": n, "updatedNumberScheduled": n, "numberMisscheduled": int64(0),
		})
	}
	for i := 0; i < sz.SidecarSets; i++ {
		name := fmt.Sprintf("%s-sidecar-%d", ns, i) // cluster-scoped
		obj := e.create(t, "", "sidecarsets", fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata: {name: %s}
spec:
  selector: {matchLabels: {sidecar: %s}}
  containers: [{name: sidecar, image: busybox}]
`, name, name))
		record("sidecarsets", obj)
		// the pods of CloneSet cs-<2+i> carry its sidecar, as OpenKruise's webhook
		// injected it
		if target := fmt.Sprintf("cs-%d", 2+i); 2+i < sz.CloneSets {
			s.sidecarPods[name] = injectSidecars(t, obj, pods, target)
		}
	}
	for i := 0; i < sz.UnitedDeployments; i++ {
		name := fmt.Sprintf("ud-%d", i)
		obj := e.create(t, ns, "uniteddeployments", fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: UnitedDeployment
metadata: {name: %[1]s}
spec:
  replicas: %[3]d
  selector: {matchLabels: {app: %[1]s}}
  template:
    cloneSetTemplate:
      metadata: {labels: {app: %[1]s}}
      spec:
        selector: {matchLabels: {app: %[1]s}}
        template:
          metadata: {labels: {app: %[1]s}}
          spec:
            containers: [{name: main, image: %[2]q}]
  topology:
    subsets: [{name: subset-a}, {name: subset-b}]
`, name, image, 2*udSubsetPods))
		record("uniteddeployments", obj)
		ud := &v1beta1.UnitedDeployment{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, ud); err != nil {
			t.Fatal(err)
		}
		udRev := e.revision(t, obj, "UnitedDeployment", &ud.Spec.Template.CloneSetTemplate.Spec.Template)
		subsetStatus := map[string]any{}
		for _, subset := range []string{"subset-a", "subset-b"} {
			pods = append(pods, e.udSubset(t, obj, subset, udRev, s, nextNode)...)
			subsetStatus[subset] = int64(udSubsetPods)
		}
		e.setStatus(t, "uniteddeployments", obj, map[string]any{
			"observedGeneration": obj.GetGeneration(), "replicas": int64(2 * udSubsetPods), "readyReplicas": int64(2 * udSubsetPods),
			"updatedReplicas": int64(2 * udSubsetPods), "updatedReadyReplicas": int64(2 * udSubsetPods),
			"currentRevision": udRev, "subsetReplicas": subsetStatus, "collisionCount": int64(0),
		})
	}
	if sz.PUB && sz.CloneSets > 0 {
		obj := e.create(t, ns, "podunavailablebudgets", `apiVersion: policy.kruise.io/v1beta1
kind: PodUnavailableBudget
metadata: {name: pub-cs-0}
spec:
  targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: cs-0}
  maxUnavailable: 1
`)
		record("podunavailablebudgets", obj)
	}
	if sz.WorkloadSpread && sz.CloneSets > 1 {
		obj := e.create(t, ns, "workloadspreads", `apiVersion: apps.kruise.io/v1beta1
kind: WorkloadSpread
metadata: {name: ws-cs-1}
spec:
  targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: cs-1}
  subsets: [{name: all}]
  scheduleStrategy: {type: Fixed}
`)
		record("workloadspreads", obj)
	}
	e.createPods(t, pods)
	for _, p := range pods {
		s.pods[p.Name] = string(p.UID)
	}
	return s
}

// injectSidecars gives the pods of CloneSet target what OpenKruise's pod webhook gives
// a pod it injects a SidecarSet into: the selector's label, the sidecar containers, and
// the hash annotations (kruise.io/sidecarset-hash and -hash-without-image, OpenKruise's
// values for the SidecarSet as stored) with the injected list. It returns how many.
func injectSidecars(t *testing.T, obj *unstructured.Unstructured, pods []*corev1.Pod, target string) int {
	t.Helper()
	v := &v1beta1.SidecarSet{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, v); err != nil {
		t.Fatal(err)
	}
	v1beta1.SetObjectDefaults_SidecarSet(v) // OpenKruise's webhook defaulted it too
	sch := runtime.NewScheme()
	if err := apps.AddToScheme(sch); err != nil {
		t.Fatal(err)
	}
	if err := v1beta1.AddToScheme(sch); err != nil {
		t.Fatal(err)
	}
	ss := &apps.SidecarSet{}
	if err := sch.Convert(v, ss, nil); err != nil {
		t.Fatal(err)
	}
	hash, err := sidecarset.Hash(ss)
	if err != nil {
		t.Fatal(err)
	}
	withoutImage, err := sidecarset.HashWithoutImage(ss)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pod := range pods {
		if pod.Labels["app"] != target {
			continue
		}
		pod.Labels["sidecar"] = ss.Name
		for _, c := range v.Spec.Containers {
			pod.Spec.Containers = append(pod.Spec.Containers, c.Container)
		}
		pod.Annotations = maps.Clone(pod.Annotations)
		for annotation, h := range map[string]string{pub.SidecarSetHashAnnotation: hash, pub.SidecarSetHashWithoutImageAnnotation: withoutImage} {
			spec := sidecarset.UpgradeSpec{UpdateTimestamp: metav1.Now(), Hash: h, SidecarSetName: ss.Name, SidecarList: sidecarset.SidecarList(ss)}
			if err := sidecarset.SetUpgradeSpec(pod, annotation, spec); err != nil {
				t.Fatal(err)
			}
		}
		sidecarset.AddToInjectedList(pod, ss.Name)
		n++
	}
	return n
}

// udSubsetPods is the pod count of each UnitedDeployment subset.
const udSubsetPods = 2

// udSubset creates one subset CloneSet of a UnitedDeployment as OpenKruise's
// UnitedDeployment controller leaves it (named <ud>-<subset>-<random>, owned by the
// UnitedDeployment, labelled with the subset and the UnitedDeployment's revision, its
// selector and pod template narrowed to the subset) and returns its pods, owned by it.
func (e *env) udSubset(t *testing.T, ud *unstructured.Unstructured, subset, udRev string, s *standIn, nextNode func() string) []*corev1.Pod {
	t.Helper()
	app := ud.GetName()
	name := fmt.Sprintf("%s-%s-%s", app, subset, utilrand.String(5))
	owner := ownerRef(ud, "apps.kruise.io/v1alpha1", "UnitedDeployment")
	obj := e.create(t, ud.GetNamespace(), "clonesets", fmt.Sprintf(`apiVersion: apps.kruise.io/v1beta1
kind: CloneSet
metadata:
  name: %[1]s
  labels: {app: %[2]s, apps.kruise.io/subset-name: %[3]s, apps.kruise.io/controller-revision-hash: %[4]s}
  ownerReferences: [{apiVersion: %[5]s, kind: %[6]s, name: %[2]s, uid: %[7]s, controller: true, blockOwnerDeletion: true}]
spec:
  replicas: %[8]d
  selector: {matchLabels: {app: %[2]s, apps.kruise.io/subset-name: %[3]s}}
  template:
    metadata: {labels: {app: %[2]s, apps.kruise.io/subset-name: %[3]s}}
    spec:
      containers: [{name: main, image: %[9]q}]
`, name, app, subset, udRev, owner.APIVersion, owner.Kind, owner.UID, udSubsetPods, image))
	s.uids["clonesets/"+name] = string(obj.GetUID())
	s.udSubsets = append(s.udSubsets, name)
	cs := &v1beta1.CloneSet{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, cs); err != nil {
		t.Fatal(err)
	}
	rev := e.revision(t, obj, "CloneSet", &cs.Spec.Template)
	var pods []*corev1.Pod
	for j := 0; j < udSubsetPods; j++ {
		id := utilrand.String(5)
		pod := podFrom(ud.GetNamespace(), name+"-"+id, &cs.Spec.Template, ownerRef(obj, "apps.kruise.io/v1alpha1", "CloneSet"), nextNode())
		pod.Labels["controller-revision-hash"] = rev
		pod.Labels["apps.kruise.io/cloneset-instance-id"] = id
		pods = append(pods, pod)
	}
	n := int64(udSubsetPods)
	e.setStatus(t, "clonesets", obj, map[string]any{
		"observedGeneration": obj.GetGeneration(), "replicas": n, "readyReplicas": n, "availableReplicas": n,
		"updatedReplicas": n, "updatedReadyReplicas": n, "expectedUpdatedReplicas": n,
		"updateRevision": rev, "currentRevision": rev, "collisionCount": int64(0),
		"labelSelector": "app=" + app + ",apps.kruise.io/subset-name=" + subset,
	})
	return pods
}

// createPods creates the pods (8 at a time) and waits until kwok runs them all.
func (e *env) createPods(t *testing.T, pods []*corev1.Pod) {
	t.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, len(pods))
	work := make(chan *corev1.Pod)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				created, err := e.c.Client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{})
				if err != nil {
					errs <- fmt.Errorf("pod %s: %w", p.Name, err)
					continue
				}
				p.UID = created.UID
			}
		}()
	}
	for _, p := range pods {
		work <- p
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(pods) == 0 {
		return
	}
	ns := pods[0].Namespace
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		list, err := e.c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		running := 0
		for _, p := range list.Items {
			if p.Status.Phase == corev1.PodRunning {
				running++
			}
		}
		if running < len(pods) {
			return false, fmt.Errorf("%d of %d pods running", running, len(pods))
		}
		return true, nil
	})
}
