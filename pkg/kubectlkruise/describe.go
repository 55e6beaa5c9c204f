package kubectlkruise

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cmddescribe "k8s.io/kubectl/pkg/cmd/describe"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/describe"
)

// NewCmdDescribe is kubectl's describe command (same arguments, flags, selectors and
// errors). The Kruise workloads get the workload describer below; every other kind,
// including the other Kruise kinds, gets what kubectl gives it: its own describer, or
// the generic one that prints the object's fields and its events.
func NewCmdDescribe(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	installDescriber(f)
	return cmddescribe.NewCmdDescribe("kubectl kruise", f, streams)
}

var describerOnce sync.Once

// installDescriber routes describe of the workload kinds to workloadDescriber (once:
// kubectl's describer is a package variable).
func installDescriber(f cmdutil.Factory) {
	describerOnce.Do(func() { wrapDescriber(f) })
}

func wrapDescriber(f cmdutil.Factory) {
	builtin := describe.DescriberFn
	describe.DescriberFn = func(g genericclioptions.RESTClientGetter, mapping *meta.RESTMapping) (describe.ResourceDescriber, error) {
		k, ok := workloadKinds[mapping.Resource.GroupResource()]
		if !ok {
			return builtin(g, mapping)
		}
		clients, err := clientsFrom(f)
		if err != nil {
			return nil, err
		}
		return &workloadDescriber{clients: clients, kind: k}, nil
	}
}

// workloadDescriber describes a CloneSet, Advanced StatefulSet or Advanced DaemonSet
// as kubectl describes a Deployment: identity, counts, strategy, pod template,
// conditions, events.
type workloadDescriber struct {
	clients *Clients
	kind    *workloadKind
}

func (d *workloadDescriber) Describe(namespace, name string, settings describe.DescriberSettings) (string, error) {
	ctx := context.TODO()
	// In the plugin's one version, whichever version the argument named.
	obj, err := d.clients.Dynamic.Resource(d.kind.resource).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	t := &target{GVR: d.kind.resource, Object: obj, kind: d.kind}
	pods, err := podPhases(ctx, d.clients, t)
	if err != nil {
		return "", err
	}
	var events *corev1.EventList
	if settings.ShowEvents {
		events, err = eventsOf(ctx, d.clients, obj, settings.ChunkSize)
		if err != nil {
			return "", err
		}
	}
	return tabbed(func(w describe.PrefixWriter) error { return describeWorkload(w, t, pods, events) })
}

// describeWorkload writes the description; it reads only its arguments, so tests
// give it objects directly.
func describeWorkload(w describe.PrefixWriter, t *target, pods map[corev1.PodPhase]int, events *corev1.EventList) error {
	obj := t.Object
	w.Write(describe.LEVEL_0, "Name:\t%s\n", obj.GetName())
	w.Write(describe.LEVEL_0, "Namespace:\t%s\n", obj.GetNamespace())
	w.Write(describe.LEVEL_0, "API Version:\t%s\n", obj.GetAPIVersion())
	w.Write(describe.LEVEL_0, "Kind:\t%s\n", obj.GetKind())
	w.Write(describe.LEVEL_0, "CreationTimestamp:\t%s\n", obj.GetCreationTimestamp().Time.Format("Mon, 02 Jan 2006 15:04:05 -0700"))
	sel, err := selectorOf(obj)
	if err != nil {
		return err
	}
	w.Write(describe.LEVEL_0, "Selector:\t%s\n", sel)
	writeMap(w, "Labels", obj.GetLabels())
	writeMap(w, "Annotations", obj.GetAnnotations())

	status := func(f string) int64 { v, _, _ := unstructured.NestedInt64(obj.Object, "status", f); return v }
	if t.kind.daemon {
		w.Write(describe.LEVEL_0, "Desired Number of Nodes Scheduled:\t%d\n", status("desiredNumberScheduled"))
		w.Write(describe.LEVEL_0, "Current Number of Nodes Scheduled:\t%d\n", status("currentNumberScheduled"))
		w.Write(describe.LEVEL_0, "Number of Nodes Scheduled with Up-to-date Pods:\t%d\n", status("updatedNumberScheduled"))
		w.Write(describe.LEVEL_0, "Number of Nodes Scheduled with Available Pods:\t%d\n", status("numberAvailable"))
	} else {
		replicas, found, _ := unstructured.NestedInt64(obj.Object, "spec", "replicas")
		if !found {
			replicas = 1
		}
		w.Write(describe.LEVEL_0, "Replicas:\t%d desired | %d updated | %d total | %d ready | %d available\n",
			replicas, status("updatedReplicas"), status("replicas"), status("readyReplicas"), status("availableReplicas"))
	}
	w.Write(describe.LEVEL_0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n",
		pods[corev1.PodRunning], pods[corev1.PodPending], pods[corev1.PodSucceeded], pods[corev1.PodFailed])

	strategy, _, _ := unstructured.NestedMap(obj.Object, "spec", "updateStrategy")
	w.Write(describe.LEVEL_0, "Update Strategy:\t%s\n", flatten(strategy))
	w.Write(describe.LEVEL_0, "Paused:\t%v\n", t.kind.paused(obj))
	if rev, _, _ := unstructured.NestedString(obj.Object, "status", "updateRevision"); rev != "" {
		w.Write(describe.LEVEL_0, "Update Revision:\t%s\n", rev)
	}

	raw, _, _ := unstructured.NestedMap(obj.Object, "spec", "template")
	var tmpl corev1.PodTemplateSpec
	if err := runtimeFromUnstructured(raw, &tmpl); err != nil {
		return fmt.Errorf("%s: spec.template: %w", t.ref(), err)
	}
	describe.DescribePodTemplate(&tmpl, w)

	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	if len(conds) > 0 {
		w.Write(describe.LEVEL_0, "Conditions:\n  Type\tStatus\tReason\tMessage\n  ----\t------\t------\t-------\n")
		for _, c := range conds {
			m, _ := c.(map[string]interface{})
			w.Write(describe.LEVEL_1, "%v\t%v\t%v\t%v\n", m["type"], m["status"], m["reason"], m["message"])
		}
	}
	if events != nil {
		describe.DescribeEvents(events, w)
	}
	return nil
}

// podPhases counts the live pods the workload controls by phase.
func podPhases(ctx context.Context, c *Clients, t *target) (map[corev1.PodPhase]int, error) {
	sel, err := selectorOf(t.Object)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.ref(), err)
	}
	list, err := c.Kube.CoreV1().Pods(t.namespace()).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return nil, fmt.Errorf("listing pods of %s: %w", t.ref(), err)
	}
	phases := map[corev1.PodPhase]int{}
	for i := range list.Items {
		p := &list.Items[i]
		if ref := metav1.GetControllerOf(p); ref != nil && ref.UID == t.Object.GetUID() && p.DeletionTimestamp == nil {
			phases[p.Status.Phase]++
		}
	}
	return phases, nil
}

// eventsOf lists the events about obj (by its UID, so a deleted namesake's events do
// not show), oldest first as kubectl shows them.
func eventsOf(ctx context.Context, c *Clients, obj *unstructured.Unstructured, limit int64) (*corev1.EventList, error) {
	sel := fields.Set{
		"involvedObject.name":      obj.GetName(),
		"involvedObject.namespace": obj.GetNamespace(),
		"involvedObject.uid":       string(obj.GetUID()),
	}.AsSelector().String()
	list, err := c.Kube.CoreV1().Events(obj.GetNamespace()).List(ctx, metav1.ListOptions{FieldSelector: sel, Limit: limit})
	if err != nil {
		return nil, fmt.Errorf("listing events of %s: %w", obj.GetName(), err)
	}
	return list, nil
}

// flatten writes a strategy map as "type=InPlaceIfPossible, rollingUpdate.partition=2".
func flatten(m map[string]interface{}) string {
	var parts []string
	var walk func(prefix string, v interface{})
	walk = func(prefix string, v interface{}) {
		if sub, ok := v.(map[string]interface{}); ok {
			for k, sv := range sub {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, sv)
			}
			return
		}
		parts = append(parts, fmt.Sprintf("%s=%v", prefix, v))
	}
	walk("", m)
	if len(parts) == 0 {
		return "<none>"
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func writeMap(w describe.PrefixWriter, title string, m map[string]string) {
	if len(m) == 0 {
		w.Write(describe.LEVEL_0, "%s:\t<none>\n", title)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i == 0 {
			w.Write(describe.LEVEL_0, "%s:\t%s=%s\n", title, k, m[k])
			continue
		}
		w.Write(describe.LEVEL_0, "\t%s=%s\n", k, m[k])
	}
}

// tabbed renders f through a tab writer, aligned as kubectl describe aligns.
func tabbed(f func(describe.PrefixWriter) error) (string, error) {
	buf := &bytes.Buffer{}
	tw := tabwriter.NewWriter(buf, 0, 8, 2, ' ', 0)
	if err := f(describe.NewPrefixWriter(io.Writer(tw))); err != nil {
		return "", err
	}
	if err := tw.Flush(); err != nil {
		return "", err
	}
	return buf.String(), nil
}
