package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// renderedObjects is what `helm template` renders with the suite's values: every object
// the chart may create, hooks included.
func (s *suite) renderedObjects(t *testing.T) []*unstructured.Unstructured {
	t.Helper()
	args := append([]string{"template", releaseName, s.chartDir()}, s.chartValues()...)
	out, err := s.run(context.Background(), "", "helm", args...)
	must(t, err)
	return decodeObjects(t, out)
}

// leftovers lists the objects of objs that still exist.
func (s *suite) leftovers(ctx context.Context, objs []*unstructured.Unstructured) ([]string, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(s.c.Config)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	var left []string
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", gvk, err)
		}
		ri := s.dyn.Resource(m.Resource)
		var getErr error
		if m.Scope.Name() == "namespace" {
			_, getErr = ri.Namespace(o.GetNamespace()).Get(ctx, o.GetName(), metav1.GetOptions{})
		} else {
			_, getErr = ri.Get(ctx, o.GetName(), metav1.GetOptions{})
		}
		switch {
		case getErr == nil:
			left = append(left, fmt.Sprintf("%s %s/%s", gvk.Kind, o.GetNamespace(), o.GetName()))
		case !apierrors.IsNotFound(getErr):
			return nil, getErr
		}
	}
	return left, nil
}

// testHelmUninstall: the pre-delete hook refuses while a Kruise workload exists; once it
// is gone, helm uninstall leaves nothing of Kruise Native: no object the chart renders
// (namespace, RBAC, admission policy, services, workloads, hooks), no APIService, no Pod
// webhook registration (kruise-apiserver's, owned by its ClusterRole), no pod anywhere
// owned by a Kruise workload.
func (s *suite) testHelmUninstall(t *testing.T) {
	ctx := context.Background()
	objs := s.renderedObjects(t)

	// A CloneSet left behind: the hook refuses, and the release keeps working.
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "cloneset-basic.yaml"))
	s.waitCloneSet(t, "cs-demo", 2*time.Minute, "3 ready", readyCount(3))
	out, err := s.run(ctx, "", "helm", "uninstall", releaseName, "--wait", "--timeout", "3m")
	if err == nil {
		t.Fatalf("helm uninstall succeeded with CloneSet cs-demo still there:\n%s", out)
	}
	hookLog, _ := s.run(ctx, "", "kubectl", "-n", kruiseNamespace, "logs", "job/kruise-native-pre-delete", "--tail=5")
	t.Logf("helm uninstall with a CloneSet left is refused:\n%s\nthe pre-delete hook's log:\n%s", firstLines(out, 6), strings.TrimSpace(hookLog))
	must(t, s.waitAPIServicesAvailable(ctx, time.Minute))
	s.deleteCloneSet(t, "cs-demo", "app=cs")

	begin := time.Now()
	out, err = s.run(ctx, "", "helm", "uninstall", releaseName, "--wait", "--timeout", "5m")
	if err != nil {
		s.dumpKruiseSystem(t)
		t.Fatal(err)
	}
	t.Logf("helm uninstall returned in %s: %s", time.Since(begin).Round(100*time.Millisecond), strings.TrimSpace(out))
	must(t, harness.WaitFor(ctx, 3*time.Minute, time.Second, "nothing of Kruise Native left", func(ctx context.Context) error {
		left, err := s.leftovers(ctx, objs)
		if err != nil {
			return err
		}
		for _, name := range kruiseAPIServices {
			if _, err := s.dyn.Resource(apiServiceGVR).Get(ctx, name, metav1.GetOptions{}); err == nil {
				left = append(left, "APIService "+name)
			} else if !apierrors.IsNotFound(err) {
				return err
			}
		}
		// kruise-apiserver's own registrations, which the chart does not render: the
		// garbage collector deletes them with their owner, ClusterRole kruise-apiserver.
		admission := s.c.Client.AdmissionregistrationV1()
		if _, err := admission.MutatingWebhookConfigurations().Get(ctx, "kruise-pod-webhook", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			left = append(left, fmt.Sprintf("MutatingWebhookConfiguration kruise-pod-webhook (%v)", err))
		}
		if _, err := admission.ValidatingWebhookConfigurations().Get(ctx, "kruise-pod-webhook", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			left = append(left, fmt.Sprintf("ValidatingWebhookConfiguration kruise-pod-webhook (%v)", err))
		}
		pods, err := s.c.Client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, p := range pods.Items {
			for _, ref := range p.OwnerReferences {
				if strings.HasSuffix(strings.Split(ref.APIVersion, "/")[0], "kruise.io") {
					left = append(left, fmt.Sprintf("pod %s/%s of %s %s", p.Namespace, p.Name, ref.Kind, ref.Name))
				}
			}
			if p.Namespace == kruiseNamespace {
				left = append(left, "pod "+p.Namespace+"/"+p.Name)
			}
		}
		if len(left) > 0 {
			return fmt.Errorf("left: %s", strings.Join(left, ", "))
		}
		return nil
	}))
	t.Logf("NOTHING LEFT after %s: none of the chart's %d objects (namespace %s included), no APIService, no pod of a Kruise workload",
		time.Since(begin).Round(100*time.Millisecond), len(objs), kruiseNamespace)
	// The PersistentVolume was ours, not the chart's: it goes now.
	must(t, ignoreNotFound(s.c.Client.CoreV1().PersistentVolumes().Delete(ctx, harness.EtcdPV, metav1.DeleteOptions{})))
}
