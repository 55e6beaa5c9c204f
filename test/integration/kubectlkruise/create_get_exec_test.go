package kubectlkruise

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Paused, so that the only runs are the ones the test starts by hand.
const nightlyACJ = `apiVersion: apps.kruise.io/v1beta1
kind: AdvancedCronJob
metadata:
  name: nightly
spec:
  schedule: "0 2 * * *"
  paused: true
  template:
    jobTemplate:
      metadata:
        labels: {app: nightly}
        annotations: {team: data}
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: main, image: busybox}]
---
apiVersion: apps.kruise.io/v1beta1
kind: AdvancedCronJob
metadata:
  name: clean-nodes
spec:
  schedule: "0 3 * * *"
  paused: true
  template:
    broadcastJobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: main, image: busybox}]
`

// `kubectl kruise create job|broadcastjob NAME --from=acj/NAME` makes a run from the
// AdvancedCronJob's template, owned by it and marked manual; dry runs create nothing;
// a template of the other kind is refused; kubectl's own --image still works. Then
// `kubectl kruise get all` lists those runs, the AdvancedCronJobs and a CloneSet beside
// kubectl's all category.
func TestCreateFromAdvancedCronJobAndGetAll(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	if _, err := c.KubectlStdin(t, nightlyACJ, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	acj, err := kruise(t).AppsV1beta1().AdvancedCronJobs(ns).Get(context.Background(), "nightly", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	out, _, err := kk(t, "create", "job", "manual-1", "--from=acj/nightly", "-n", ns, "--dry-run=client", "-o", "yaml")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "create job --dry-run=client", out, "cronjob.kubernetes.io/instantiate: manual")
	if _, _, err := kk(t, "create", "job", "manual-1", "--from=acj/nightly", "-n", ns, "--dry-run=server"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Client.BatchV1().Jobs(ns).Get(context.Background(), "manual-1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("a dry run created the Job: %v", err)
	}

	out, _, err = kk(t, "create", "job", "manual-1", "--from=advancedcronjob/nightly", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "create job", out, "job.batch/manual-1 created")
	job, err := c.Client.BatchV1().Jobs(ns).Get(context.Background(), "manual-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if job.Annotations["cronjob.kubernetes.io/instantiate"] != "manual" || job.Annotations["team"] != "data" || job.Labels["app"] != "nightly" {
		t.Errorf("job metadata: labels %v, annotations %v", job.Labels, job.Annotations)
	}
	refs := job.OwnerReferences
	if len(refs) != 1 || refs[0].Kind != "AdvancedCronJob" || refs[0].APIVersion != "apps.kruise.io/v1alpha1" || refs[0].UID != acj.UID || refs[0].Controller != nil {
		t.Errorf("job ownerReferences = %+v, want a non-controller reference to AdvancedCronJob %s", refs, acj.UID)
	}
	if got := job.Spec.Template.Spec.Containers[0].Image; got != "busybox" {
		t.Errorf("job image = %q", got)
	}

	out, _, err = kk(t, "create", "bcj", "clean-now", "--from=acj/clean-nodes", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "create broadcastjob", out, "broadcastjob.apps.kruise.io/clean-now created")
	if got := jsonpath(t, ns, "broadcastjobs.apps.kruise.io/clean-now", ".metadata.ownerReferences[0].name"); got != "clean-nodes" {
		t.Errorf("broadcastjob owner = %q", got)
	}

	_, stderr, err := kk(t, "create", "job", "wrong", "--from=acj/clean-nodes", "-n", ns)
	if err == nil {
		t.Fatal("create job from a broadcastJobTemplate succeeded")
	}
	mustContain(t, "stderr", stderr, `error: advancedcronjob/clean-nodes has no jobTemplate (its runs are BroadcastJob): use "kubectl kruise create broadcastjob"`)

	out, _, err = kk(t, "create", "job", "by-image", "--image=busybox", "-n", ns, "--", "date")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "create job --image", out, "job.batch/by-image created")

	createCloneSet(t, ns, newCloneSet("web", 1, "nginx:1.25"))
	out, _, err = kk(t, "get", "all", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"job.batch/manual-1", "cloneset.apps.kruise.io/web", "advancedcronjob.apps.kruise.io/nightly", "broadcastjob.apps.kruise.io/clean-now"} {
		mustContain(t, "get all", out, want)
	}
	out, _, err = kk(t, "get", "all", "-n", ns, "-o", "name")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "get all -o name", out, "cloneset.apps.kruise.io/web\n")
	// kubectl's own get all is unchanged: Kruise kinds are not in the all category.
	out, _, err = c.Kubectl(t, "get", "all", "-n", ns, "-o", "name")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "apps.kruise.io") {
		t.Errorf("kubectl get all lists Kruise kinds:\n%s", out)
	}
}

// `kubectl kruise exec -S envoy` picks the working container of the HotUpgrade pair
// from the pod's annotation and hands it to kubectl's exec. kwok nodes have no kubelet
// to exec in, so the test reads the exec request kubectl sends (-v=6 logs its URL) and
// expects the stream itself to fail; an unknown -S fails before any request.
func TestExecSidecarContainer(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hot", Annotations: map[string]string{
			"kruise.io/sidecarset-working-hotupgrade-container": `{"envoy":"envoy-2"}`,
		}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "main", Image: "nginx"}, {Name: "envoy-1", Image: "envoy"}, {Name: "envoy-2", Image: "envoy"},
		}},
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := c.Client.CoreV1().Pods(ns).Get(context.Background(), "hot", metav1.GetOptions{})
		return err == nil && p.Status.Phase == corev1.PodRunning, err
	})

	_, stderr, err := kk(t, "exec", "hot", "-S", "envoy", "-n", ns, "-v=6", "--", "date")
	t.Logf("exec -S envoy on a kwok pod: %v", err)
	mustContain(t, "exec -S envoy request", stderr, "/namespaces/"+ns+"/pods/hot/exec?command=date&container=envoy-2&")

	_, stderr, err = kk(t, "exec", "hot", "-S", "nosuch", "-n", ns, "--", "date")
	if err == nil {
		t.Fatal("exec -S nosuch succeeded")
	}
	mustContain(t, "stderr", stderr, "error: sidecar nosuch is not a container of pod hot (nor a HotUpgrade sidecar of it) out of: main, envoy-1, envoy-2")
}

// `kubectl kruise create crr` asks to recreate containers of a running pod; the server
// fills in the rest (preStop, ports, node), and an unknown container fails before any
// write.
func TestCreateContainerRecreateRequest(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-0"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}, {Name: "log-agent", Image: "busybox"}}},
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := c.Client.CoreV1().Pods(ns).Get(context.Background(), "web-0", metav1.GetOptions{})
		return err == nil && p.Status.Phase == corev1.PodRunning, err
	})
	out, _, err := kk(t, "create", "crr", "r1", "--pod=web-0", "--containers=log-agent", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "create crr", out, "containerrecreaterequest.apps.kruise.io/r1 created")
	if got := jsonpath(t, ns, "crr/r1", ".spec.containers[*].name"); got != "log-agent" {
		t.Errorf("containers = %q", got)
	}
	if got := jsonpath(t, ns, "crr/r1", ".spec.strategy.unreadyGracePeriodSeconds"); got != "3" {
		t.Errorf("unreadyGracePeriodSeconds = %q", got)
	}
	_, stderr, err := kk(t, "create", "containerrecreaterequest", "r2", "--pod=web-0", "--containers=nosuch", "-n", ns)
	if err == nil {
		t.Fatal("create crr with an unknown container succeeded")
	}
	mustContain(t, "stderr", stderr, "error: container nosuch is not valid for pod web-0 out of: main, log-agent")
}

// `kubectl kruise expose` makes a Service selecting a CloneSet's pods; `set subject` is
// kubectl's, on a RoleBinding.
func TestExposeAndSetSubject(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	createCloneSet(t, ns, newCloneSet("web", 1, "nginx:1.25"))
	out, _, err := kk(t, "expose", "cloneset", "web", "--port=80", "--target-port=8080", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "expose", out, "service/web exposed")
	if got := jsonpath(t, ns, "service/web", ".spec.selector.app"); got != "web" {
		t.Errorf("service selector app = %q", got)
	}
	if got := jsonpath(t, ns, "service/web", ".spec.ports[0].targetPort"); got != "8080" {
		t.Errorf("service targetPort = %q", got)
	}

	if _, _, err := c.Kubectl(t, "create", "rolebinding", "rb", "--clusterrole=view", "--user=bob", "-n", ns); err != nil {
		t.Fatal(err)
	}
	out, _, err = kk(t, "set", "subject", "rolebinding/rb", "--user=alice", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "set subject", out, "rolebinding.rbac.authorization.k8s.io/rb subjects updated")
	if got := jsonpath(t, ns, "rolebinding/rb", ".subjects[*].name"); got != "bob alice" {
		t.Errorf("subjects = %q", got)
	}
}
