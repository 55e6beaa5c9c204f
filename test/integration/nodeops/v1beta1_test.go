package nodeops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// v1beta1Manifests are OpenKruise v1beta1 manifests of the four node-operation kinds.
// NODE is a node with a daemon, NS the test's namespace, IMAGE an image the daemon has
// not pulled yet (one per run: a daemon never pulls a tag it has). The NodeImage asks for six
// slow pulls (15 s each) on a daemon that runs two at a time: four wait at first, and
// some wait for about 30 s, long enough to be seen on a loaded machine.
const v1beta1Manifests = `
apiVersion: apps.kruise.io/v1beta1
kind: NodeImage
metadata:
  name: NODE
spec:
  images:
    IMAGE:
      tags:
      - tag: "1"
        pullSecrets:
        - namespace: NS
          name: tag-secret
      - tag: "2"
      - tag: "3"
      - tag: "4"
      - tag: "5"
      - tag: "6"
---
apiVersion: apps.kruise.io/v1beta1
kind: ImagePullJob
metadata:
  name: ipj
  namespace: NS
spec:
  image: busybox:1.36
  selector:
    names: [no-such-node]
  parallelism: 1
  completionPolicy:
    type: Never
---
apiVersion: apps.kruise.io/v1beta1
kind: ImageListPullJob
metadata:
  name: ilpj
  namespace: NS
spec:
  images: [busybox:1.36, nginx:1.27]
  selector:
    names: [no-such-node]
  completionPolicy:
    type: Never
---
apiVersion: apps.kruise.io/v1beta1
kind: ContainerRecreateRequest
metadata:
  name: crr
  namespace: NS
spec:
  podName: web
  containers:
  - name: app
  strategy:
    failurePolicy: Fail
    forceRecreate: true
  activeDeadlineSeconds: 300
`

// kubectl applies v1beta1 manifests of NodeImage, ImagePullJob, ImageListPullJob and
// ContainerRecreateRequest; `kubectl get` in v1alpha1 and in v1beta1 shows the same
// object (v1beta1's extra fields aside, which v1alpha1 carries in an annotation); the
// node daemon reports status.waiting, and the forced request recreates the container.
func TestV1beta1ManifestsAreServedInBothVersions(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)
	node := nodeName(c.Nodes - 1)
	before := runningPod(t, ns, "web", nodeName(0))

	// a repository of the slow registry no other run of the test asked for
	image := "slow.invalid/v1beta1-served-" + ns
	t.Cleanup(func() {
		patch := fmt.Sprintf(`{"spec":{"images":{%q:null}}}`, image)
		_, _ = kc.AppsV1beta1().NodeImages().Patch(context.Background(), node, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	})
	manifest := strings.NewReplacer("NODE", node, "NS", ns, "IMAGE", image).Replace(v1beta1Manifests)
	if out, err := c.KubectlStdin(t, manifest, "apply", "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}

	// The daemon reports the tags without a worker as waiting (looked at first: the
	// window is about 30 s), then pulls them.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ni, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return ni.Status.Waiting >= 1, nil
	})
	out := kubectl(t, "get", "nodeimages.v1beta1.apps.kruise.io", node, "-o", "jsonpath={.status.waiting}")
	t.Logf("status.waiting while two slow pulls run: %s", out)

	objects := []struct{ resource, namespace, name string }{
		{"nodeimages", "", node},
		{"imagepulljobs", ns, "ipj"},
		{"imagelistpulljobs", ns, "ilpj"},
		{"containerrecreaterequests", ns, "crr"},
	}
	for _, o := range objects {
		alpha, beta := bothVersions(t, o.resource, o.namespace, o.name)
		if o.resource == "nodeimages" {
			alpha = v1beta1FieldsFromAnnotation(t, alpha)
		}
		if !reflect.DeepEqual(alpha, beta) {
			a, _ := json.MarshalIndent(alpha, "", " ")
			b, _ := json.MarshalIndent(beta, "", " ")
			t.Errorf("%s %s differs between versions:\nv1alpha1 %s\nv1beta1  %s", o.resource, o.name, a, b)
		}
	}
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		ni, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		st, ok := ni.Status.ImageStatuses[image]
		done := 0
		for _, tag := range st.Tags {
			if tag.Phase == "Succeeded" {
				done++
			}
		}
		return ok && done == 6 && ni.Status.Waiting == 0, nil
	})

	// The forced request recreates the container in place. If it does not, its last
	// status is logged: which side stopped moving it.
	var lastCRR *v1beta1.ContainerRecreateRequest
	t.Cleanup(func() {
		if t.Failed() && lastCRR != nil {
			raw, _ := json.MarshalIndent(lastCRR.Status, "", " ")
			t.Logf("the request's last status: %s\nits containers: %+v", raw, lastCRR.Spec.Containers)
		}
	})
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		crr, err := kc.AppsV1beta1().ContainerRecreateRequests(ns).Get(ctx, "crr", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		lastCRR = crr
		if crr.Status.Phase == "Failed" {
			t.Fatalf("the forced request failed: %s", crr.Status.Message)
		}
		return crr.Status.Phase == "Completed", nil
	})
	after, err := c.Client.CoreV1().Pods(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, was := after.Status.ContainerStatuses[0].RestartCount, before.Status.ContainerStatuses[0].RestartCount; after.UID != before.UID || got != was+1 {
		t.Errorf("app restartCount %d → %d (pod %s → %s), want +1 in the same pod", was, got, before.UID, after.UID)
	}

	// A bad value in a v1beta1-only field is refused with its path.
	bad := strings.NewReplacer("NS", ns).Replace(`
apiVersion: apps.kruise.io/v1beta1
kind: ContainerRecreateRequest
metadata: {name: bad, namespace: NS}
spec:
  podName: web
  containers: [{name: app}]
  strategy: {forceRecreate: "yes"}
`)
	if out, err := c.KubectlStdin(t, bad, "create", "-f", "-"); err == nil || !strings.Contains(err.Error(), "spec.strategy.forceRecreate") {
		t.Errorf("forceRecreate \"yes\": %v (output %q); want a refusal naming spec.strategy.forceRecreate", err, out)
	}
}

// bothVersions reads one object with kubectl get in v1alpha1 and in v1beta1, as users
// do, and returns the v1alpha1 object with the v1beta1 object at the very same
// resourceVersion: the daemon and the controllers write meanwhile, so the v1beta1 copy
// compared is read at exactly the v1alpha1 read's resourceVersion (a list with
// resourceVersionMatch=Exact), not at whatever the second kubectl get happened to see.
// Both come without apiVersion and kind (a list's items have neither) and without
// managedFields (kubectl get hides them).
func bothVersions(t *testing.T, resource, namespace, name string) (alpha, beta map[string]any) {
	t.Helper()
	get := func(version string) map[string]any {
		args := []string{"get", resource + "." + version + ".apps.kruise.io", name, "-o", "json"}
		if namespace != "" {
			args = append(args, "-n", namespace)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(kubectl(t, args...)), &m); err != nil {
			t.Fatal(err)
		}
		if got := m["apiVersion"]; got != "apps.kruise.io/"+version {
			t.Fatalf("%s %s: apiVersion %v, want apps.kruise.io/%s", resource, version, got, version)
		}
		return m
	}
	alpha = get("v1alpha1")
	get("v1beta1")
	rv, _ := alpha["metadata"].(map[string]any)["resourceVersion"].(string)

	path := "/apis/apps.kruise.io/v1beta1/"
	if namespace != "" {
		path += "namespaces/" + namespace + "/"
	}
	query := url.Values{"fieldSelector": {"metadata.name=" + name}, "resourceVersion": {rv}, "resourceVersionMatch": {"Exact"}}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal([]byte(kubectl(t, "get", "--raw", path+resource+"?"+query.Encode())), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Fatalf("v1beta1 %s at resourceVersion %s: %d items named %s, want 1", resource, rv, len(list.Items), name)
	}
	beta = list.Items[0]
	if got := beta["metadata"].(map[string]any)["resourceVersion"]; got != rv {
		t.Fatalf("v1beta1 %s %s at resourceVersion %s has resourceVersion %v", resource, name, rv, got)
	}
	for _, m := range []map[string]any{alpha, beta} {
		delete(m, "apiVersion")
		delete(m, "kind")
		delete(m["metadata"].(map[string]any), "managedFields")
	}
	return alpha, beta
}

// v1beta1FieldsFromAnnotation puts what a v1alpha1 NodeImage carries in its annotation
// back where v1beta1 has it (status.waiting, per-tag pullSecrets), as a client of
// v1beta1 would see it.
func v1beta1FieldsFromAnnotation(t *testing.T, ni map[string]any) map[string]any {
	t.Helper()
	meta := ni["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	raw, ok := annotations[v1alpha1.NodeImageV1beta1FieldsAnnotation].(string)
	if !ok {
		t.Fatalf("v1alpha1 NodeImage without %s: %v", v1alpha1.NodeImageV1beta1FieldsAnnotation, annotations)
	}
	delete(annotations, v1alpha1.NodeImageV1beta1FieldsAnnotation)
	if len(annotations) == 0 {
		delete(meta, "annotations")
	}
	var extra struct {
		Waiting        int64                                 `json:"waiting"`
		TagPullSecrets map[string]map[string]json.RawMessage `json:"tagPullSecrets"`
	}
	if err := json.Unmarshal([]byte(raw), &extra); err != nil {
		t.Fatal(err)
	}
	if status, ok := ni["status"].(map[string]any); ok {
		status["waiting"] = float64(extra.Waiting)
	}
	images := ni["spec"].(map[string]any)["images"].(map[string]any)
	for image, byTag := range extra.TagPullSecrets {
		for _, tag := range images[image].(map[string]any)["tags"].([]any) {
			tm := tag.(map[string]any)
			if secrets, ok := byTag[tm["tag"].(string)]; ok {
				var v any
				_ = json.Unmarshal(secrets, &v)
				tm["pullSecrets"] = v
			}
		}
	}
	return ni
}
