package podwebhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/kruise-native/kruise-native/examples"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/install"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// exampleDocs returns the documents of a documented manifest, as JSON.
func exampleDocs(t *testing.T, file string) [][]byte {
	t.Helper()
	data, err := examples.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, doc := range strings.Split(string(data), "\n---\n") {
		j, err := yaml.ToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
	return out
}

// storedSidecarSet decodes a v1alpha1 SidecarSet and returns it defaulted as the
// server stores it and as the webhook's informer sees it (v1beta1).
func storedSidecarSet(t testing.TB, data []byte) *v1beta1.SidecarSet {
	t.Helper()
	in := &v1alpha1.SidecarSet{}
	if err := json.Unmarshal(data, in); err != nil {
		t.Fatal(err)
	}
	scheme.Default(in)
	hub, out := &apps.SidecarSet{}, &v1beta1.SidecarSet{}
	if err := scheme.Convert(in, hub, nil); err != nil {
		t.Fatal(err)
	}
	if err := scheme.Convert(hub, out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

func webhookConfig(readinessGate bool, nsLabels map[string]labels.Set, sets ...*v1beta1.SidecarSet) Config {
	return Config{
		SidecarSets: func() ([]*v1beta1.SidecarSet, error) { return sets, nil },
		NamespaceLabels: func(_ context.Context, ns string) (labels.Set, error) {
			return nsLabels[ns], nil
		},
		Synced:        func() bool { return true },
		ReadinessGate: readinessGate,
		Now:           func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
}

// newWebhook is kruise-apiserver's chain (Handlers) on the given SidecarSets.
func newWebhook(readinessGate bool, nsLabels map[string]labels.Set, sets ...*v1beta1.SidecarSet) *Server {
	return newServer(webhookConfig(readinessGate, nsLabels, sets...))
}

func newServer(cfg Config) *Server {
	s, err := NewServer(Handlers(cfg))
	if err != nil {
		panic(fmt.Sprintf("kruise-apiserver's handler list is invalid: %v", err))
	}
	return s
}

// serve posts body to path on the server's HTTP handlers, as kube-apiserver does.
func serve(s *Server, path string, body []byte) *httptest.ResponseRecorder {
	mux := http.NewServeMux()
	for p, h := range s.Paths() {
		mux.Handle(p, h)
	}
	return newRecorder(mux, http.MethodPost, path, body)
}

func newRecorder(h http.Handler, method, path string, body []byte) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, bytes.NewReader(body)))
	return rec
}

// admit sends pod through the webhook as a CREATE in namespace ns and returns the
// response and the pod with the patch applied.
func admit(t *testing.T, w *Server, ns string, pod *corev1.Pod) (*admissionv1.AdmissionResponse, *corev1.Pod) {
	t.Helper()
	raw, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := w.Mutate(context.Background(), &admissionv1.AdmissionRequest{
		Operation: admissionv1.Create, Namespace: ns,
		Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"},
		Object:   runtime.RawExtension{Raw: raw},
	})
	if err != nil {
		t.Fatalf("admit: %v", err)
	}
	if !resp.Allowed || resp.Patch == nil {
		return resp, pod
	}
	return resp, applyPatch(t, raw, resp.Patch)
}

// applyPatch applies the webhook's patch (whole-field "add" and "remove" operations) to raw.
func applyPatch(t *testing.T, raw, patch []byte) *corev1.Pod {
	t.Helper()
	var doc map[string]interface{}
	var ops []jsonPatchOp
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(patch, &ops); err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		parts := strings.Split(strings.TrimPrefix(op.Path, "/"), "/")
		if (op.Op != "add" && op.Op != "remove") || len(parts) != 2 {
			t.Fatalf("unexpected patch operation %+v", op)
		}
		parent, ok := doc[parts[0]].(map[string]interface{})
		if !ok {
			t.Fatalf("patch %s: no %s in the pod", op.Path, parts[0])
		}
		if op.Op == "remove" {
			if _, ok := parent[parts[1]]; !ok {
				t.Fatalf("patch removes %s, which the pod does not have", op.Path)
			}
			delete(parent, parts[1])
			continue
		}
		parent[parts[1]] = op.Value
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	out := &corev1.Pod{}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func podOf(t *testing.T, data []byte) *corev1.Pod {
	t.Helper()
	pod := &corev1.Pod{}
	if err := json.Unmarshal(data, pod); err != nil {
		t.Fatal(err)
	}
	return pod
}

func containerNames(cs []corev1.Container) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func env(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

// sidecarset.yaml: the pod labelled app=nginx gets sidecar1 (before app) with
// IS_INJECTED=true and the log volume, and records the SidecarSet's hashes.
func TestInjectDocumentedSidecarSet(t *testing.T) {
	docs := exampleDocs(t, "sidecarset.yaml")
	ss := storedSidecarSet(t, docs[0])
	w := newWebhook(false, nil, ss)
	resp, pod := admit(t, w, "default", podOf(t, docs[1]))
	if !resp.Allowed {
		t.Fatalf("denied: %v", resp.Result)
	}
	if got := containerNames(pod.Spec.Containers); !cmp.Equal(got, []string{"sidecar1", "app"}) {
		t.Fatalf("containers = %v, want sidecar1 before app", got)
	}
	sc := pod.Spec.Containers[0]
	if e := env(sc, pub.SidecarInjectedEnv); e == nil || e.Value != "true" {
		t.Errorf("sidecar env = %v, want IS_INJECTED=true", sc.Env)
	}
	if sc.Image != "busybox" || len(sc.Command) != 2 || sc.VolumeMounts[0].Name != "log-volume" {
		t.Errorf("sidecar = %+v", sc)
	}
	if len(pod.Spec.Volumes) != 1 || pod.Spec.Volumes[0].Name != "log-volume" || pod.Spec.Volumes[0].EmptyDir == nil {
		t.Errorf("volumes = %+v", pod.Spec.Volumes)
	}
	if env(pod.Spec.Containers[1], pub.SidecarInjectedEnv) != nil {
		t.Error("the app container must not be marked injected")
	}
	hub := toHub(t, ss)
	hash, _ := sidecarset.Hash(hub)
	specs := sidecarset.UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)
	if s := specs["test-sidecarset"]; s.Hash != hash || !cmp.Equal(s.SidecarList, []string{"sidecar1"}) {
		t.Errorf("hash annotation = %+v, want hash %s and sidecar1", specs, hash)
	}
	if _, ok := sidecarset.UpgradeSpecs(pod, pub.SidecarSetHashWithoutImageAnnotation)["test-sidecarset"]; !ok {
		t.Errorf("no %s for test-sidecarset", pub.SidecarSetHashWithoutImageAnnotation)
	}
	if got := sidecarset.InjectedList(pod); !cmp.Equal(got, []string{"test-sidecarset"}) {
		t.Errorf("injected list = %v", got)
	}

	// A pod the selector does not match, or in a namespace the SidecarSet leaves out, is untouched.
	other := podOf(t, docs[1])
	other.Labels = map[string]string{"app": "redis"}
	if resp, _ := admit(t, w, "default", other); resp.Patch != nil {
		t.Errorf("unselected pod patched: %s", resp.Patch)
	}
	ss.Spec.Namespace = "team-a"
	if resp, _ := admit(t, newWebhook(false, nil, ss), "default", podOf(t, docs[1])); resp.Patch != nil {
		t.Errorf("pod of another namespace patched: %s", resp.Patch)
	}
}

// sidecarset-hotupgrade.yaml: the pod gets sidecar-1 (working, the sidecar image) and
// sidecar-2 (the empty image), each with its version env read from annotations.
func TestInjectHotUpgrade(t *testing.T) {
	docs := exampleDocs(t, "sidecarset-hotupgrade.yaml")
	ss := storedSidecarSet(t, docs[0])
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "busybox-x", Labels: map[string]string{"app": "hotupgrade"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "busybox", Image: "openkruise/hotupgrade-sample:busybox"}}}}
	_, got := admit(t, newWebhook(false, nil, ss), "default", pod)
	if names := containerNames(got.Spec.Containers); !cmp.Equal(names, []string{"sidecar-1", "sidecar-2", "busybox"}) {
		t.Fatalf("containers = %v", names)
	}
	c1, c2 := got.Spec.Containers[0], got.Spec.Containers[1]
	if c1.Image != "openkruise/hotupgrade-sample:sidecarv1" || c2.Image != "openkruise/hotupgrade-sample:empty" {
		t.Errorf("images = %s, %s", c1.Image, c2.Image)
	}
	if c1.Lifecycle == nil || c2.Lifecycle == nil {
		t.Error("both containers keep the postStart migration hook")
	}
	for _, c := range []corev1.Container{c1, c2} {
		v := env(c, pub.SidecarSetVersionEnv)
		if v == nil || v.ValueFrom == nil || v.ValueFrom.FieldRef.FieldPath != "metadata.annotations['"+pub.SidecarSetVersionAnnotation(c.Name)+"']" {
			t.Errorf("%s: version env = %+v", c.Name, v)
		}
		if env(c, pub.SidecarSetVersionAltEnv) == nil {
			t.Errorf("%s: no %s", c.Name, pub.SidecarSetVersionAltEnv)
		}
	}
	want := map[string]string{
		pub.SidecarSetVersionAnnotation("sidecar-1"): "1", pub.SidecarSetVersionAltAnnotation("sidecar-1"): "0",
		pub.SidecarSetVersionAnnotation("sidecar-2"): "0", pub.SidecarSetVersionAltAnnotation("sidecar-2"): "1",
	}
	for k, v := range want {
		if got.Annotations[k] != v {
			t.Errorf("annotation %s = %q, want %q", k, got.Annotations[k], v)
		}
	}
	if w := sidecarset.WorkingHotUpgradeContainers(got); w["sidecar"] != "sidecar-1" {
		t.Errorf("working containers = %v", w)
	}
}

// sidecarset-policies.yaml: nginx goes before the app containers, mounts its volume
// under the pod name nginx-conf, and gets PROXY_IP copied from the container main.
func TestInjectPolicies(t *testing.T) {
	ss := storedSidecarSet(t, exampleDocs(t, "sidecarset-policies.yaml")[0])
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "sample", Labels: map[string]string{"app": "sample"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "main", Image: "app:v1", Env: []corev1.EnvVar{{Name: "PROXY_IP", Value: "10.0.0.1"}, {Name: "OTHER", Value: "x"}}},
		}}}
	_, got := admit(t, newWebhook(false, nil, ss), "default", pod)
	if names := containerNames(got.Spec.Containers); !cmp.Equal(names, []string{"nginx", "main"}) {
		t.Fatalf("containers = %v", names)
	}
	nginx := got.Spec.Containers[0]
	if e := env(nginx, "PROXY_IP"); e == nil || e.Value != "10.0.0.1" || env(nginx, "OTHER") != nil {
		t.Errorf("nginx env = %+v, want PROXY_IP copied and nothing else", nginx.Env)
	}
	if nginx.VolumeMounts[0].Name != "nginx-conf" || got.Spec.Volumes[0].Name != "nginx-conf" || got.Spec.Volumes[0].HostPath == nil {
		t.Errorf("mount %+v, volumes %+v: want nginx-conf", nginx.VolumeMounts, got.Spec.Volumes)
	}
}

func TestInjectionRules(t *testing.T) {
	base := func() *v1beta1.SidecarSet {
		return storedSidecarSet(t, []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
			"metadata":{"name":"b-set"},"spec":{"selector":{"matchLabels":{"app":"web"}},
			"containers":[{"name":"log","image":"log:v1"}]}}`))
	}
	pod := func() *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{
				InitContainers: []corev1.Container{{Name: "setup", Image: "setup"}},
				Containers: []corev1.Container{{Name: "web", Image: "web:v1",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}}},
				Volumes: []corev1.Volume{{Name: "data"}},
			}}
	}

	t.Run("after the app, init containers by policy, shared volumes", func(t *testing.T) {
		ss := base()
		ss.Spec.Containers[0].PodInjectPolicy = v1beta1.AfterAppContainerType
		ss.Spec.Containers[0].ShareVolumePolicy.Type = v1beta1.ShareVolumePolicyEnabled
		ss.Spec.InitContainers = []v1beta1.SidecarContainer{
			{Container: corev1.Container{Name: "z-init", Image: "i"}, PodInjectPolicy: v1beta1.AfterAppContainerType},
			{Container: corev1.Container{Name: "a-init", Image: "i"}, PodInjectPolicy: v1beta1.BeforeAppContainerType},
		}
		_, got := admit(t, newWebhook(false, nil, ss), "default", pod())
		if names := containerNames(got.Spec.Containers); !cmp.Equal(names, []string{"web", "log"}) {
			t.Errorf("containers = %v", names)
		}
		if names := containerNames(got.Spec.InitContainers); !cmp.Equal(names, []string{"a-init", "setup", "z-init"}) {
			t.Errorf("init containers = %v", names)
		}
		if m := got.Spec.Containers[1].VolumeMounts; len(m) != 1 || m[0].Name != "data" {
			t.Errorf("shared mounts = %+v, want the app's data", m)
		}
	})
	t.Run("first SidecarSet by name wins a container name; the pod's own wins too", func(t *testing.T) {
		a := base()
		a.Name = "a-set"
		a.Spec.Containers[0].Image = "log:from-a"
		b := base()
		b.Spec.Containers = append(b.Spec.Containers, v1beta1.SidecarContainer{Container: corev1.Container{Name: "web", Image: "x"}})
		_, got := admit(t, newWebhook(false, nil, b, a), "default", pod())
		if names := containerNames(got.Spec.Containers); !cmp.Equal(names, []string{"log", "web"}) || got.Spec.Containers[0].Image != "log:from-a" {
			t.Errorf("containers = %v (log image %s), want a-set's log only", names, got.Spec.Containers[0].Image)
		}
		if l := sidecarset.InjectedList(got); !cmp.Equal(l, []string{"a-set"}) {
			t.Errorf("injected list = %v: b-set injected nothing", l)
		}
	})
	t.Run("paused injection", func(t *testing.T) {
		ss := base()
		ss.Spec.InjectionStrategy.Paused = true
		if resp, _ := admit(t, newWebhook(false, nil, ss), "default", pod()); resp.Patch != nil {
			t.Errorf("paused SidecarSet injected: %s", resp.Patch)
		}
	})
	t.Run("namespace selector", func(t *testing.T) {
		ss := base()
		ss.Spec.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"mesh": "on"}}
		ns := map[string]labels.Set{"meshed": {"mesh": "on"}}
		if resp, _ := admit(t, newWebhook(false, ns, ss), "plain", pod()); resp.Patch != nil {
			t.Error("pod of an unselected namespace patched")
		}
		if _, got := admit(t, newWebhook(false, ns, ss), "meshed", pod()); len(got.Spec.Containers) != 2 {
			t.Error("pod of a selected namespace not injected")
		}
	})
	t.Run("pull secrets and pod metadata", func(t *testing.T) {
		ss := base()
		ss.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "registry"}}
		ss.Spec.PatchPodMetadata = []v1beta1.SidecarSetPatchPodMetadata{
			{Annotations: map[string]string{"retained": "new", "fresh": "v"}, PatchPolicy: v1beta1.SidecarSetRetainPatchPolicy},
			{Annotations: map[string]string{"overwritten": "new"}, PatchPolicy: v1beta1.SidecarSetOverwritePatchPolicy},
			{Annotations: map[string]string{"merged": `{"log":1}`}, PatchPolicy: v1beta1.SidecarSetMergePatchJSONPatchPolicy},
		}
		p := pod()
		p.Annotations = map[string]string{"retained": "old", "overwritten": "old", "merged": `{"app":2}`}
		_, got := admit(t, newWebhook(false, nil, ss), "default", p)
		want := map[string]string{"retained": "old", "fresh": "v", "overwritten": "new", "merged": `{"app":2,"log":1}`}
		for k, v := range want {
			if got.Annotations[k] != v {
				t.Errorf("annotation %s = %q, want %q", k, got.Annotations[k], v)
			}
		}
		if len(got.Spec.ImagePullSecrets) != 1 {
			t.Errorf("pull secrets = %v", got.Spec.ImagePullSecrets)
		}
	})
}

func TestLaunchPriority(t *testing.T) {
	docs := exampleDocs(t, "container-launch-priority.yaml")
	w := newWebhook(false, nil)
	barrierKeys := func(p *corev1.Pod) []string {
		var keys []string
		for _, c := range p.Spec.Containers {
			e := env(c, pub.ContainerLaunchBarrierEnv)
			if e == nil {
				keys = append(keys, "")
				continue
			}
			if e.ValueFrom.ConfigMapKeyRef.Name != p.Name+"-barrier" {
				t.Errorf("%s reads ConfigMap %s", c.Name, e.ValueFrom.ConfigMapKeyRef.Name)
			}
			keys = append(keys, e.ValueFrom.ConfigMapKeyRef.Key)
		}
		return keys
	}

	_, ordered := admit(t, w, "default", podOf(t, docs[0]))
	if k := barrierKeys(ordered); !cmp.Equal(k, []string{"p_0", "p_-1"}) {
		t.Errorf("ordered-pod keys = %v, want sidecar p_0 then main p_-1", k)
	}
	_, weighted := admit(t, w, "default", podOf(t, docs[1]))
	if k := barrierKeys(weighted); !cmp.Equal(k, []string{"p_0", "p_1"}) {
		t.Errorf("weighted-pod keys = %v, want main p_0, sidecar p_1", k)
	}

	generated := podOf(t, docs[0])
	generated.Name, generated.GenerateName = "", "ordered-"
	_, named := admit(t, w, "default", generated)
	if !strings.HasPrefix(named.Name, "ordered-") || len(named.Name) != len("ordered-")+5 {
		t.Errorf("generated name = %q", named.Name)
	}
	barrierKeys(named)

	same := podOf(t, docs[1])
	same.Spec.Containers[0].Env = []corev1.EnvVar{{Name: pub.ContainerPriorityEnv, Value: "1"}}
	if resp, _ := admit(t, w, "default", same); resp.Patch != nil {
		t.Errorf("equal priorities need no barrier: %s", resp.Patch)
	}
	for _, bad := range []string{"high", "2147483648", "-2147483648"} {
		p := podOf(t, docs[1])
		p.Spec.Containers[1].Env[0].Value = bad
		resp, _ := admit(t, w, "default", p)
		if resp.Allowed || resp.Result.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(resp.Result.Message, "spec.containers[1].env[0].value") {
			t.Errorf("priority %q: want a 422 naming the env value, got %+v", bad, resp.Result)
		}
	}
}

func TestReadinessGate(t *testing.T) {
	owned := func(apiVersion, kind string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", OwnerReferences: []metav1.OwnerReference{
			{APIVersion: apiVersion, Kind: kind, Name: "o", UID: "u", Controller: new(true)}}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
	}
	gated := func(p *corev1.Pod) bool {
		for _, g := range p.Spec.ReadinessGates {
			if g.ConditionType == pub.KruisePodReadyConditionType {
				return true
			}
		}
		return false
	}
	on := newWebhook(true, nil)
	for _, tc := range []struct {
		apiVersion, kind string
		want             bool
	}{
		{"apps.kruise.io/v1alpha1", "CloneSet", true},
		{"apps.kruise.io/v1beta1", "StatefulSet", true},
		{"apps/v1", "ReplicaSet", false},
		{"apps.kruise.io/v1alpha1", "BroadcastJob", false},
	} {
		if _, got := admit(t, on, "default", owned(tc.apiVersion, tc.kind)); gated(got) != tc.want {
			t.Errorf("%s %s: gate %v, want %v", tc.apiVersion, tc.kind, gated(got), tc.want)
		}
	}
	if _, got := admit(t, newWebhook(false, nil), "default", owned("apps.kruise.io/v1alpha1", "CloneSet")); gated(got) {
		t.Error("gate injected although turned off")
	}
}

func TestServeHTTP(t *testing.T) {
	docs := exampleDocs(t, "sidecarset.yaml")
	w := newWebhook(false, nil, storedSidecarSet(t, docs[0]))
	review := admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{UID: "uid-1", Operation: admissionv1.Create, Namespace: "default",
			Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"},
			Object:   runtime.RawExtension{Raw: docs[1]}},
	}
	body, _ := json.Marshal(review)
	rec := serve(w, MutatePath, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var out admissionv1.AdmissionReview
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Response == nil || out.Response.UID != "uid-1" || !out.Response.Allowed || out.Response.Patch == nil ||
		out.APIVersion != "admission.k8s.io/v1" {
		t.Fatalf("response = %+v", out)
	}

	notSynced := newServer(Config{Synced: func() bool { return false }})
	rec = serve(notSynced, MutatePath, body)
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("before the caches sync: status %d, want 503 (kube-apiserver applies the failurePolicy)", rec.Code)
	}
}

func toHub(t *testing.T, ss *v1beta1.SidecarSet) *apps.SidecarSet {
	t.Helper()
	out := &apps.SidecarSet{}
	if err := scheme.Convert(ss, out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// createRequest is a pod CREATE in namespace default with the raw pod.
func createRequest(raw []byte) *admissionv1.AdmissionRequest {
	return &admissionv1.AdmissionRequest{Operation: admissionv1.Create, Namespace: "default",
		Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"}, Object: runtime.RawExtension{Raw: raw}}
}
