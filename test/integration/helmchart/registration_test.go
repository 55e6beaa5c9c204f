package helmchart

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// registrations is what the test compares of the two kruise-pod-webhook configurations:
// their versions, the webhooks' match conditions and the call scope's annotations, and
// who wrote them.
type registrations struct {
	versions    [2]string
	conditions  map[string][]admissionregistrationv1.MatchCondition
	annotations [2]map[string]string
	managers    []string
}

func readRegistrations(t *testing.T) registrations {
	t.Helper()
	c := framework.Get(t)
	ctx := context.Background()
	api := c.Client.AdmissionregistrationV1()
	m, err := api.MutatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := api.ValidatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := registrations{
		versions:    [2]string{m.ResourceVersion, v.ResourceVersion},
		conditions:  map[string][]admissionregistrationv1.MatchCondition{},
		annotations: [2]map[string]string{m.Annotations, v.Annotations},
	}
	for _, h := range m.Webhooks {
		r.conditions[h.Name] = h.MatchConditions
	}
	for _, h := range v.Webhooks {
		r.conditions[h.Name] = h.MatchConditions
	}
	seen := map[string]bool{}
	for _, f := range append(m.ManagedFields, v.ManagedFields...) {
		if !seen[f.Manager] {
			seen[f.Manager] = true
			r.managers = append(r.managers, f.Manager)
		}
	}
	sort.Strings(r.managers)
	return r
}

// gitOpsManifests is the chart rendered as a GitOps tool (Argo CD) renders it, with
// helm template, less what the test must not apply to the local stack: the hooks (Argo
// CD runs them as hooks, not as synced objects) and the Service kruise-apiserver, whose
// selector would cut the stack's APIServices off from its kruise-apiserver process
// (the stack reaches it through an ExternalName Service of that name).
func gitOpsManifests(t *testing.T, args ...string) (manifests string, objs map[string]map[string]interface{}) {
	t.Helper()
	rendered, err := helm(t, append([]string{"template", "kruise-native", chart, "--namespace", "kruise-system"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	objs = objects(t, rendered)
	var b strings.Builder
	for id, o := range objs {
		meta, _ := o["metadata"].(map[string]interface{})
		annotations, _ := meta["annotations"].(map[string]interface{})
		if _, hook := annotations["helm.sh/hook"]; hook || id == "Service/kruise-system/kruise-apiserver" {
			delete(objs, id)
			continue
		}
		data, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "---\n%s", data)
	}
	return b.String(), objs
}

// A GitOps re-apply of the chart's manifests (Argo CD or Flux syncing helm template's
// output, client-side or server-side with --force-conflicts) does not undo the Pod
// webhook's call scope: kruise-apiserver owns the registrations, and the chart has none.
// On the chart that installed them narrowed to "false" this fails: the re-apply writes
// the registrations (a new resourceVersion, another field manager) and puts the initial
// condition back until the keeper notices. A restart of kruise-apiserver, which applies
// them again, keeps the condition too.
func TestGitOpsReapplyKeepsTheCallScope(t *testing.T) {
	c := framework.Get(t)
	const sidecarSet = `apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata:
  name: helmchart-gitops
spec:
  selector:
    matchLabels:
      app: helmchart-gitops
  containers:
  - name: sidecar1
    image: busybox:1.36
`
	if _, err := c.KubectlStdin(t, sidecarSet, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "sidecarset", "helmchart-gitops", "--ignore-not-found") })
	// The keeper has narrowed the mutating entry to the SidecarSet's pods (and the rest),
	// and settled: past the grace of the widening, so it writes no more.
	framework.WaitFor(t, 90*time.Second, func() (bool, error) {
		clauses, narrowed := c.PodWebhookCallScope(t, podwebhook.Mutating)
		if !narrowed || clauses["sidecarset/helmchart-gitops"] == "" {
			return false, nil
		}
		m, err := c.Client.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(context.Background(), podwebhook.ConfigurationName, metav1.GetOptions{})
		return err == nil && m.Annotations[podwebhook.CallWidenedAtAnnotation] == "", nil
	})
	before := readRegistrations(t)
	for _, want := range []string{podwebhook.RegistrationFieldManager, podwebhook.CallScopeFieldManager} {
		if !contains(before.managers, want) {
			t.Errorf("field managers %v: no %s", before.managers, want)
		}
	}

	// Take back what the sync created in kruise-system: its workloads and their
	// objects, not those the stack has of the same names (namespace, ServiceAccounts,
	// RBAC, the node daemon's admission policy).
	created := map[string]bool{"Deployment": true, "StatefulSet": true, "DaemonSet": true, "PodDisruptionBudget": true,
		"PersistentVolumeClaim": true, "ConfigMap": true, "Secret": true, "Service": true}
	applied := map[string]bool{}
	t.Cleanup(func() {
		for id := range applied {
			parts := strings.Split(id, "/") // kind/namespace/name
			if created[parts[0]] {
				_, _, _ = c.Kubectl(t, "delete", "-n", parts[1], "--ignore-not-found", "--wait=false", parts[0], parts[2])
			}
		}
	})
	for _, tc := range []struct {
		name string
		helm []string
		sync []string
	}{
		{"client-side apply", []string{"--set", "etcd.mode=cluster"}, []string{"apply", "-f", "-"}},
		// The same mode again, as a sync re-applies the same manifests (a mode change
		// would not merge: single's Recreate strategy under cluster's rollingUpdate).
		{"server-side apply", []string{"--set", "etcd.mode=cluster", "--set", "certificates.mode=external"},
			[]string{"apply", "--server-side", "--force-conflicts", "--field-manager=argocd-controller", "-f", "-"}},
	} {
		manifests, objs := gitOpsManifests(t, tc.helm...)
		for id := range objs {
			if strings.HasPrefix(id, "MutatingWebhookConfiguration/") || strings.HasPrefix(id, "ValidatingWebhookConfiguration/") {
				t.Errorf("%s: the chart renders %s: kruise-apiserver is the registrations' only writer", tc.name, id)
			}
		}
		for id := range objs {
			applied[id] = true
		}
		if out, err := c.KubectlStdin(t, manifests, tc.sync...); err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, out)
		}
		after := readRegistrations(t)
		if !reflect.DeepEqual(after, before) {
			t.Errorf("%s of the chart changed the registrations:\nbefore %+v\nafter  %+v", tc.name, before, after)
		}
	}

	// A restart (a rollout, another replica starting) applies the registrations again:
	// the keeper's condition stays, as the registrar never applies one.
	c.RestartKruiseAPIServer(t)
	after := readRegistrations(t)
	if !reflect.DeepEqual(after.conditions, before.conditions) || !reflect.DeepEqual(after.annotations, before.annotations) {
		t.Errorf("a restart changed the call scope:\nbefore %+v %+v\nafter  %+v %+v", before.conditions, before.annotations,
			after.conditions, after.annotations)
	}
}

// What helm uninstall and kubectl delete -k do to the registrations: they delete
// ClusterRole kruise-apiserver, which owns them, and the garbage collector deletes them.
// kruise-apiserver registers them again, owned by the role as it is then, when it starts.
// On the chart that installed them this fails: they had no owner.
func TestUninstallDeletesTheRegistrations(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	api := c.Client.AdmissionregistrationV1()
	owned := func(uid string) func() (bool, error) {
		return func() (bool, error) {
			m, err := api.MutatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			v, err := api.ValidatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			for _, owners := range [][]metav1.OwnerReference{m.OwnerReferences, v.OwnerReferences} {
				if len(owners) != 1 || owners[0].Kind != "ClusterRole" || owners[0].Name != "kruise-apiserver" || string(owners[0].UID) != uid {
					return false, fmt.Errorf("owners %+v, want ClusterRole kruise-apiserver %s", owners, uid)
				}
			}
			return true, nil
		}
	}
	role, err := c.Client.RbacV1().ClusterRoles().Get(ctx, "kruise-apiserver", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 30*time.Second, owned(string(role.UID)))

	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	restored := false
	restore := func() {
		if _, _, err := c.Kubectl(t, "apply", "-k", filepath.Join(root, "artifacts", "deploy", "rbac")); err != nil {
			t.Error(err)
		}
		c.RestartKruiseAPIServer(t)
		restored = true
	}
	t.Cleanup(func() {
		if !restored {
			restore()
		}
	})
	if _, _, err := c.Kubectl(t, "delete", "clusterrole", "kruise-apiserver"); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, errM := api.MutatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
		_, errV := api.ValidatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
		return apierrors.IsNotFound(errM) && apierrors.IsNotFound(errV), nil
	})

	// Installed again: kruise-apiserver registers them at start, owned by the new role.
	restore()
	role, err = c.Client.RbacV1().ClusterRoles().Get(ctx, "kruise-apiserver", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 30*time.Second, owned(string(role.UID)))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
