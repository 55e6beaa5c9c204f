package installhooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// leftBehind are the Kruise kinds whose objects leave things in the cluster once the
// API that manages them is gone: the workloads' pods (and UnitedDeployment's
// CloneSets), ResourceDistribution's copies. The garbage collector cannot remove them
// after an uninstall (the owners' API went away with the APIService), and nothing would
// update or scale them. Other kinds end with the API: a SidecarSet's sidecars stay in
// pods that their own owners manage, budgets and spreads stop being enforced, node
// jobs stop.
var leftBehind = []schema.GroupVersionResource{
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "clonesets"},
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "statefulsets"},
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "daemonsets"},
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "broadcastjobs"},
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "advancedcronjobs"},
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "uniteddeployments"},
	{Group: "apps.kruise.io", Version: "v1alpha1", Resource: "resourcedistributions"},
}

// maxListed bounds how many objects the refusal names.
const maxListed = 20

// Remaining lists the objects of the leftBehind kinds, as "<resource> <namespace>/<name>"
// (cluster-scoped: "<resource> <name>"). A kind the server does not serve (the
// APIService was never registered, or was removed) has none.
func Remaining(ctx context.Context, dyn dynamic.Interface) ([]string, error) {
	var out []string
	for _, gvr := range leftBehind {
		list, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", gvr.GroupResource(), err)
		}
		for _, o := range list.Items {
			name := o.GetName()
			if ns := o.GetNamespace(); ns != "" {
				name = ns + "/" + name
			}
			out = append(out, gvr.GroupResource().String()+" "+name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// ErrObjectsRemain is the pre-delete hook's refusal.
var ErrObjectsRemain = errors.New("Kruise objects remain")

// PreDelete refuses (ErrObjectsRemain, with what to do) while Remaining lists
// anything; otherwise it removes the APIServices named in manifests, so that no
// APIService outlives kruise-apiserver when Helm deletes it next.
func PreDelete(ctx context.Context, dyn dynamic.Interface, manifests string, out io.Writer) error {
	remaining, err := Remaining(ctx, dyn)
	if err != nil {
		return fmt.Errorf("%w; nothing was removed. If kruise-apiserver cannot answer and you accept leaving its workloads' pods unmanaged, "+
			"run `helm uninstall --no-hooks` and then `kubectl delete apiservice v1beta1.apps.kruise.io v1alpha1.apps.kruise.io v1beta1.policy.kruise.io v1alpha1.policy.kruise.io`", err)
	}
	if len(remaining) > 0 {
		shown := remaining
		if len(shown) > maxListed {
			shown = shown[:maxListed]
		}
		fmt.Fprintf(out, "%d Kruise object(s) would outlive the uninstall, their pods or copies left unmanaged:\n  %s\n", len(remaining), strings.Join(shown, "\n  "))
		if len(remaining) > len(shown) {
			fmt.Fprintf(out, "  ... and %d more\n", len(remaining)-len(shown))
		}
		fmt.Fprintln(out, "Delete them first and wait until they are gone (the garbage collector then removes their pods), e.g.\n"+
			"  kubectl delete clonesets.apps.kruise.io,statefulsets.apps.kruise.io,daemonsets.apps.kruise.io,broadcastjobs.apps.kruise.io,advancedcronjobs.apps.kruise.io,uniteddeployments.apps.kruise.io --all -A\n"+
			"  kubectl delete resourcedistributions.apps.kruise.io --all\n"+
			"then run helm uninstall again.")
		return fmt.Errorf("%w: %d object(s), e.g. %s", ErrObjectsRemain, len(remaining), remaining[0])
	}
	fmt.Fprintln(out, "no Kruise workloads or ResourceDistributions remain")
	apis, err := ReadAPIServices(manifests)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(apis))
	for _, a := range apis {
		names = append(names, a.GetName())
	}
	return Unregister(ctx, dyn, names, out)
}
