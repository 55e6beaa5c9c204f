package nodeops

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// etcdKV reads and writes kruise-apiserver's embedded etcd directly, through its JSON
// gateway with the storage client's certificate: what an older server left there.
type etcdKV struct {
	url    string
	client *http.Client
}

func newEtcdKV(t *testing.T) etcdKV {
	t.Helper()
	client, url := framework.Get(t).KruiseEtcd(t)
	return etcdKV{url: url, client: client}
}

func (e etcdKV) call(t *testing.T, path string, body map[string]string, out any) {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := e.client.Post(e.url+path, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatalf("etcd %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("etcd %s: %d %s", path, resp.StatusCode, raw)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("etcd %s: %v in %s", path, err, raw)
	}
}

func (e etcdKV) get(t *testing.T, key string) []byte {
	t.Helper()
	var out struct {
		KVs []struct{ Value string } `json:"kvs"`
	}
	e.call(t, "/v3/kv/range", map[string]string{"key": b64(key)}, &out)
	if len(out.KVs) != 1 {
		t.Fatalf("etcd has no %s", key)
	}
	v, err := base64.StdEncoding.DecodeString(out.KVs[0].Value)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (e etcdKV) put(t *testing.T, key string, value []byte) {
	t.Helper()
	var out map[string]any
	e.call(t, "/v3/kv/put", map[string]string{"key": b64(key), "value": base64.StdEncoding.EncodeToString(value)}, &out)
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// storedVersion is the apiVersion of a stored object (kube's protobuf envelope).
func storedVersion(t *testing.T, data []byte) string {
	t.Helper()
	const magic = "k8s\x00"
	if !bytes.HasPrefix(data, []byte(magic)) {
		t.Fatalf("stored value is not kube protobuf: %.40q", data)
	}
	var u runtime.Unknown
	if err := u.Unmarshal(data[len(magic):]); err != nil {
		t.Fatal(err)
	}
	return u.APIVersion
}

// encodeV1alpha1 is obj as a server that stored these kinds in v1alpha1 wrote it.
func encodeV1alpha1(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		t.Fatal("no protobuf serializer")
	}
	data, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, v1alpha1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// storedObject is one kind's object, created through the API and then put back into
// etcd in the old stored form.
type storedObject struct {
	resource, kind, namespace, name string
	// create makes the object through the API (with the spec of specJSON).
	create func(t *testing.T, ctx context.Context) error
	// specJSON is the object's spec, as both versions must serve it.
	specJSON string
	// done is the end state kruise-controller leaves the object in (v1alpha1 metadata
	// and status); after it the controller has nothing more to write.
	done func(t *testing.T, meta metav1.ObjectMeta, status json.RawMessage) (bool, string)
}

// Objects kruise-apiserver stored in v1alpha1 before it served v1beta1 are read in
// both versions, with the spec they were written with, and an update stores them as
// v1beta1. Each object is created and left until kruise-controller has brought it to
// its end state; then the controller is stopped and each object written back as
// v1alpha1 protobuf (what the old server stored). No node daemon acts on them (their
// node has none), so nothing but this test writes them between the put and the reads.
func TestV1alpha1StoredObjectsAreReadAndRewritten(t *testing.T) {
	c := framework.Get(t)
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)
	kv := newEtcdKV(t)

	// A node without a daemon: nothing writes its NodeImage's status, nor the
	// requests for its pods.
	const node = "kwok-stored-form"
	c.JoinNode(t, node, nil)
	podOnNodeWithoutDaemon(t, ns, "old-crr-pod", node)

	objects := []storedObject{
		{
			resource: "nodeimages", kind: "NodeImage", name: node,
			create: func(t *testing.T, ctx context.Context) error {
				framework.WaitFor(t, time.Minute, func() (bool, error) {
					_, err := kc.AppsV1alpha1().NodeImages().Get(ctx, node, metav1.GetOptions{})
					return err == nil, client404(err)
				})
				patch := `{"spec":{"images":{"nginx":{"pullSecrets":[{"namespace":"` + ns + `","name":"regcred"}],"tags":[{"tag":"1.27","version":2}]}}}}`
				_, err := kc.AppsV1alpha1().NodeImages().Patch(ctx, node, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
				return err
			},
			specJSON: `{"images":{"nginx":{"pullSecrets":[{"namespace":"` + ns + `","name":"regcred"}],"tags":[{"tag":"1.27",` +
				`"pullPolicy":{"timeoutSeconds":600,"backoffLimit":3},"version":2,"imagePullPolicy":"IfNotPresent"}]}}}`,
			// the controller only creates it and prunes tags of gone jobs (the spec
			// check below); the status is the node daemon's, and this node has none
			done: func(*testing.T, metav1.ObjectMeta, json.RawMessage) (bool, string) { return true, "" },
		},
		{
			resource: "imagepulljobs", kind: "ImagePullJob", namespace: ns, name: "old-ipj",
			create: func(_ *testing.T, ctx context.Context) error {
				_, err := kc.AppsV1alpha1().ImagePullJobs(ns).Create(ctx, &v1alpha1.ImagePullJob{
					ObjectMeta: metav1.ObjectMeta{Name: "old-ipj"},
					Spec: v1alpha1.ImagePullJobSpec{Image: "busybox:1.37", ImagePullJobTemplate: v1alpha1.ImagePullJobTemplate{
						// no node matches: the controller has nothing to do after its first status
						Selector:         &v1alpha1.ImagePullJobNodeSelector{Names: []string{"no-such-node"}},
						Parallelism:      ptr.To(intstr.FromInt32(2)),
						PullPolicy:       &v1alpha1.PullPolicy{TimeoutSeconds: ptr.To[int32](60), BackoffLimit: ptr.To[int32](1)},
						CompletionPolicy: v1alpha1.CompletionPolicy{Type: v1alpha1.Never},
					}},
				}, metav1.CreateOptions{})
				return err
			},
			specJSON: `{"image":"busybox:1.37","selector":{"names":["no-such-node"]},"parallelism":2,` +
				`"pullPolicy":{"timeoutSeconds":60,"backoffLimit":1},"completionPolicy":{"type":"Never"},"imagePullPolicy":"IfNotPresent"}`,
			done: func(_ *testing.T, _ metav1.ObjectMeta, raw json.RawMessage) (bool, string) {
				var st v1alpha1.ImagePullJobStatus
				_ = json.Unmarshal(raw, &st)
				return st.StartTime != nil, "status without startTime"
			},
		},
		{
			resource: "imagelistpulljobs", kind: "ImageListPullJob", namespace: ns, name: "old-ilpj",
			create: func(_ *testing.T, ctx context.Context) error {
				_, err := kc.AppsV1alpha1().ImageListPullJobs(ns).Create(ctx, &v1alpha1.ImageListPullJob{
					ObjectMeta: metav1.ObjectMeta{Name: "old-ilpj"},
					Spec: v1alpha1.ImageListPullJobSpec{Images: []string{"busybox:1.37", "nginx:1.27"}, ImagePullJobTemplate: v1alpha1.ImagePullJobTemplate{
						Selector:         &v1alpha1.ImagePullJobNodeSelector{Names: []string{"no-such-node"}},
						CompletionPolicy: v1alpha1.CompletionPolicy{Type: v1alpha1.Never},
						ImagePullPolicy:  v1alpha1.PullAlways,
					}},
				}, metav1.CreateOptions{})
				return err
			},
			specJSON: `{"images":["busybox:1.37","nginx:1.27"],"selector":{"names":["no-such-node"]},"parallelism":1,` +
				`"pullPolicy":{"timeoutSeconds":600,"backoffLimit":3},"completionPolicy":{"type":"Never"},"imagePullPolicy":"Always"}`,
			// both images' jobs never complete (Never): two active from the first status on
			done: func(_ *testing.T, _ metav1.ObjectMeta, raw json.RawMessage) (bool, string) {
				var st v1alpha1.ImageListPullJobStatus
				_ = json.Unmarshal(raw, &st)
				return st.StartTime != nil && st.Desired == 2 && st.Active == 2, fmt.Sprintf("status %s", raw)
			},
		},
		{
			resource: "containerrecreaterequests", kind: "ContainerRecreateRequest", namespace: ns, name: "old-crr",
			create: func(_ *testing.T, ctx context.Context) error {
				_, err := kc.AppsV1alpha1().ContainerRecreateRequests(ns).Create(ctx, &v1alpha1.ContainerRecreateRequest{
					ObjectMeta: metav1.ObjectMeta{Name: "old-crr"},
					Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "old-crr-pod",
						Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}},
						// the pod is made unready, then the request waits out the hour
						// (no pickup deadline before that)
						Strategy: &v1alpha1.ContainerRecreateRequestStrategy{FailurePolicy: v1alpha1.ContainerRecreateRequestFailurePolicyIgnore,
							OrderedRecreate: true, UnreadyGracePeriodSeconds: ptr.To[int64](3600)},
						TTLSecondsAfterFinished: ptr.To[int32](600)},
				}, metav1.CreateOptions{})
				return err
			},
			// terminationGracePeriodSeconds and the container's statusContext are the
			// pod's, filled in at creation
			specJSON: `{"podName":"old-crr-pod","containers":[{"name":"app","statusContext":{"containerID":"fakecri://old-crr-pod-app","restartCount":0}}],` +
				`"strategy":{"failurePolicy":"Ignore","orderedRecreate":true,` +
				`"terminationGracePeriodSeconds":5,"unreadyGracePeriodSeconds":3600},"ttlSecondsAfterFinished":600}`,
			// Pending, with the time the pod was made unready recorded
			done: func(t *testing.T, m metav1.ObjectMeta, raw json.RawMessage) (bool, string) {
				var st v1alpha1.ContainerRecreateRequestStatus
				_ = json.Unmarshal(raw, &st)
				if st.Phase == v1alpha1.ContainerRecreateRequestFailed || st.Phase == v1alpha1.ContainerRecreateRequestCompleted {
					t.Fatalf("old-crr finished (%s): %s", st.Phase, st.Message)
				}
				_, acquired := m.Annotations[v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey]
				return st.Phase == v1alpha1.ContainerRecreateRequestPending && acquired,
					fmt.Sprintf("phase %q, annotations %v", st.Phase, m.Annotations)
			},
		},
	}

	ctx := context.Background()
	for _, o := range objects {
		if err := o.create(t, ctx); err != nil {
			t.Fatalf("%s: %v", o.resource, err)
		}
	}
	for _, o := range objects {
		waitEndState(t, o)
	}
	// From here on nothing but this test writes the objects: kruise-controller stops
	// (and is at work again, ready, for the tests after this one).
	c.StopComponent(t, "kruise-controller")
	t.Cleanup(func() {
		c.StartComponent(t, "kruise-controller")
		c.WaitKruiseControllerReady(t, 2*time.Minute)
	})

	for _, o := range objects {
		t.Run(o.resource, func(t *testing.T) {
			key := "/registry/kruise.io/apps.kruise.io/" + o.resource + "/" + o.name
			if o.namespace != "" {
				key = "/registry/kruise.io/apps.kruise.io/" + o.resource + "/" + o.namespace + "/" + o.name
			}
			if got := storedVersion(t, kv.get(t, key)); got != "apps.kruise.io/v1beta1" {
				t.Fatalf("a new object is stored as %s, want apps.kruise.io/v1beta1", got)
			}
			current, err := json.Marshal(getJSON(t, "v1alpha1", o))
			if err != nil {
				t.Fatal(err)
			}

			// Write it back as the v1alpha1 protobuf an older server stored, labelled so
			// that the reads below can tell it from what the API wrote.
			old, err := scheme.Scheme.New(v1alpha1.SchemeGroupVersion.WithKind(o.kind))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(current, old); err != nil {
				t.Fatal(err)
			}
			meta := old.(metav1.Object)
			meta.SetResourceVersion("")
			meta.SetManagedFields(nil)
			labels := meta.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels["written-by"] = "old-server"
			meta.SetLabels(labels)
			kv.put(t, key, encodeV1alpha1(t, old))
			if got := storedVersion(t, kv.get(t, key)); got != "apps.kruise.io/v1alpha1" {
				t.Fatalf("written as %s, want apps.kruise.io/v1alpha1", got)
			}

			// Both versions serve it, with its spec.
			for _, v := range []string{"v1alpha1", "v1beta1"} {
				var obj map[string]json.RawMessage
				framework.WaitFor(t, 30*time.Second, func() (bool, error) {
					obj = getJSON(t, v, o)
					var m metav1.ObjectMeta
					mustUnmarshal(t, obj["metadata"], &m)
					return m.Labels["written-by"] == "old-server", nil
				})
				if got := string(obj["apiVersion"]); got != `"apps.kruise.io/`+v+`"` {
					t.Errorf("%s: apiVersion %s", v, got)
				}
				assertJSONEqual(t, v+" spec", o.specJSON, obj["spec"])
			}
			if got := storedVersion(t, kv.get(t, key)); got != "apps.kruise.io/v1alpha1" {
				t.Fatalf("rewritten as %s by something other than this test", got)
			}

			// An update through the API stores it in the storage version.
			args := []string{"label", o.resource + ".v1alpha1.apps.kruise.io", o.name, "rewritten=yes"}
			if o.namespace != "" {
				args = append(args, "-n", o.namespace)
			}
			kubectl(t, args...)
			if got := storedVersion(t, kv.get(t, key)); got != "apps.kruise.io/v1beta1" {
				t.Fatalf("after an update the object is stored as %s, want apps.kruise.io/v1beta1", got)
			}
			assertJSONEqual(t, "spec after the rewrite", o.specJSON, getJSON(t, "v1beta1", o)["spec"])
		})
	}
}

// waitEndState waits until o has its spec and the end state kruise-controller leaves
// it in.
func waitEndState(t *testing.T, o storedObject) {
	t.Helper()
	want := map[string]any{}
	if err := json.Unmarshal([]byte(o.specJSON), &want); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		obj := getJSON(t, "v1alpha1", o)
		var m metav1.ObjectMeta
		mustUnmarshal(t, obj["metadata"], &m)
		var spec any
		mustUnmarshal(t, obj["spec"], &spec)
		if !reflect.DeepEqual(spec, any(want)) {
			return false, fmt.Errorf("%s %s: spec %s", o.resource, o.name, obj["spec"])
		}
		if ok, saw := o.done(t, m, obj["status"]); !ok {
			return false, fmt.Errorf("%s %s: %s", o.resource, o.name, saw)
		}
		return true, nil
	})
}

// podOnNodeWithoutDaemon makes runningPod's pod on a node without a node daemon: kwok
// marks it Running, and the test writes the containerIDs the node's runtime would
// (a request's containers must have one). Nothing writes the pod's status after that.
func podOnNodeWithoutDaemon(t *testing.T, ns, name, node string) {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	createPod(t, ns, name, node)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pod, err := c.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if pod.Status.Phase != corev1.PodRunning || len(pod.Status.ContainerStatuses) != len(pod.Spec.Containers) {
			return false, fmt.Errorf("pod %s not running yet: %s, %d container statuses", name, pod.Status.Phase, len(pod.Status.ContainerStatuses))
		}
		for i := range pod.Status.ContainerStatuses {
			s := &pod.Status.ContainerStatuses[i]
			s.ContainerID = "fakecri://" + name + "-" + s.Name
		}
		_, err = c.Client.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		return err == nil, err // a conflict with kwok's write: read again
	})
	waitContainersRunning(t, ns, name)
}

// getJSON reads o through kubectl in one version, as top-level fields.
func getJSON(t *testing.T, version string, o storedObject) map[string]json.RawMessage {
	t.Helper()
	args := []string{"get", o.resource + "." + version + ".apps.kruise.io", o.name, "-o", "json"}
	if o.namespace != "" {
		args = append(args, "-n", o.namespace)
	}
	out := kubectl(t, args...)
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return m
}

func mustUnmarshal(t *testing.T, raw json.RawMessage, into any) {
	t.Helper()
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
}

// assertJSONEqual compares two JSON documents by value.
func assertJSONEqual(t *testing.T, what, want string, got json.RawMessage) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	mustUnmarshal(t, got, &g)
	wb, _ := json.Marshal(w)
	gb, _ := json.Marshal(g)
	if !bytes.Equal(wb, gb) {
		t.Errorf("%s:\n got %s\nwant %s", what, gb, wb)
	}
}
