package controlplane

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// The storage invariants of the deploy manifests (artifacts/deploy and its overlays): no
// kruise-apiserver replica count above one with the embedded etcd, no etcd data on an
// emptyDir or on the container's own filesystem, and no PodDisruptionBudget that refuses
// every eviction. Checked on rendered objects, so they hold for whatever kustomize makes
// of the sources.

// manifests are the objects of a rendered kustomization.
type manifests []*unstructured.Unstructured

func parseManifests(t testing.TB, rendered string) manifests {
	t.Helper()
	var objs manifests
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(rendered), 4096)
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				return objs
			}
			t.Fatalf("parsing the rendered manifests: %v", err)
		}
		if len(obj) == 0 {
			continue
		}
		objs = append(objs, &unstructured.Unstructured{Object: obj})
	}
}

func (m manifests) of(kind string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range m {
		if o.GetKind() == kind {
			out = append(out, o)
		}
	}
	return out
}

func (m manifests) find(kind, namespace, name string) *unstructured.Unstructured {
	for _, o := range m.of(kind) {
		if o.GetNamespace() == namespace && o.GetName() == name {
			return o
		}
	}
	return nil
}

func convert[T any](t testing.TB, o *unstructured.Unstructured) *T {
	t.Helper()
	out := new(T)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, out); err != nil {
		t.Fatalf("%s %s/%s: %v", o.GetKind(), o.GetNamespace(), o.GetName(), err)
	}
	return out
}

// workload is a pod template with what the invariants need of its owner.
type workload struct {
	kind, namespace, name string
	// replicas is the number of pods; -1 for a DaemonSet (one per node).
	replicas int
	// recreate is true for a Deployment whose old pod is gone before the new one starts.
	recreate bool
	pod      corev1.PodTemplateSpec
	// claims are a StatefulSet's volumeClaimTemplates: each pod's own PVC.
	claims []corev1.PersistentVolumeClaim
	sts    *appsv1.StatefulSet
}

func (w workload) String() string { return fmt.Sprintf("%s %s/%s", w.kind, w.namespace, w.name) }

func replicasOf(p *int32) int {
	if p == nil {
		return 1 // the API server's default for Deployments and StatefulSets
	}
	return int(*p)
}

func (m manifests) workloads(t testing.TB) []workload {
	t.Helper()
	var out []workload
	for _, o := range m.of("Deployment") {
		d := convert[appsv1.Deployment](t, o)
		out = append(out, workload{kind: "Deployment", namespace: d.Namespace, name: d.Name, replicas: replicasOf(d.Spec.Replicas),
			recreate: d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType, pod: d.Spec.Template})
	}
	for _, o := range m.of("StatefulSet") {
		s := convert[appsv1.StatefulSet](t, o)
		out = append(out, workload{kind: "StatefulSet", namespace: s.Namespace, name: s.Name, replicas: replicasOf(s.Spec.Replicas),
			pod: s.Spec.Template, claims: s.Spec.VolumeClaimTemplates, sts: s})
	}
	for _, o := range m.of("DaemonSet") {
		d := convert[appsv1.DaemonSet](t, o)
		out = append(out, workload{kind: "DaemonSet", namespace: d.Namespace, name: d.Name, replicas: -1, pod: d.Spec.Template})
	}
	return out
}

// imageName is an image reference without registry path, tag or digest:
// "quay.io/coreos/etcd:v3.6.8" -> "etcd".
func imageName(image string) string {
	image, _, _ = strings.Cut(image, "@")
	base := path.Base(image)
	base, _, _ = strings.Cut(base, ":")
	return base
}

// flags parses --name=value (and bare --name) arguments.
func flags(args []string) map[string]string {
	out := map[string]string{}
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok {
			v = "true"
		}
		out[k] = v
	}
	return out
}

func isKruiseAPIServer(c corev1.Container) bool { return imageName(c.Image) == "kruise-apiserver" }

func isEtcd(c corev1.Container) bool {
	return imageName(c.Image) == "etcd" || (len(c.Command) > 0 && path.Base(c.Command[0]) == "etcd")
}

// mountFor returns the mount that holds p (the deepest one), or nil.
func mountFor(c corev1.Container, p string) *corev1.VolumeMount {
	var best *corev1.VolumeMount
	for i, m := range c.VolumeMounts {
		mp := strings.TrimSuffix(m.MountPath, "/")
		if (p == mp || strings.HasPrefix(p, mp+"/")) && (best == nil || len(mp) > len(best.MountPath)) {
			best = &c.VolumeMounts[i]
		}
	}
	return best
}

// dataVolumeProblem says why the data directory dir of container c is not on a volume that
// outlives the pod, or "" if it is: a StatefulSet's volumeClaimTemplate, or a
// PersistentVolumeClaim that the manifests create.
func (m manifests) dataVolumeProblem(w workload, c corev1.Container, dir string) string {
	mount := mountFor(c, dir)
	if mount == nil {
		return fmt.Sprintf("data directory %s is on no volume (the container's own filesystem)", dir)
	}
	for _, vct := range w.claims {
		if vct.Name == mount.Name {
			return ""
		}
	}
	for _, v := range w.pod.Spec.Volumes {
		if v.Name != mount.Name {
			continue
		}
		switch {
		case v.EmptyDir != nil:
			return fmt.Sprintf("data directory %s is on emptyDir volume %q: the data goes with the pod", dir, v.Name)
		case v.PersistentVolumeClaim != nil:
			if m.find("PersistentVolumeClaim", w.namespace, v.PersistentVolumeClaim.ClaimName) == nil {
				return fmt.Sprintf("data directory %s is on PersistentVolumeClaim %q, which the manifests do not create", dir, v.PersistentVolumeClaim.ClaimName)
			}
			return ""
		default:
			return fmt.Sprintf("data directory %s is on volume %q, which is not a PersistentVolumeClaim", dir, v.Name)
		}
	}
	return fmt.Sprintf("data directory %s: mount %q names no volume", dir, mount.Name)
}

// storageProblems lists every broken invariant of the rendered manifests.
func (m manifests) storageProblems(t testing.TB) []string {
	t.Helper()
	var problems []string
	report := func(w workload, format string, args ...any) {
		problems = append(problems, w.String()+": "+fmt.Sprintf(format, args...))
	}
	workloads := m.workloads(t)
	for _, w := range workloads {
		for _, c := range w.pod.Spec.Containers {
			f := flags(c.Args)
			switch {
			case isKruiseAPIServer(c):
				var embeddedFlags []string
				for k := range f {
					if strings.HasPrefix(k, "embedded-etcd-") {
						embeddedFlags = append(embeddedFlags, "--"+k)
					}
				}
				if f["etcd-servers"] != "" {
					if len(embeddedFlags) > 0 {
						report(w, "--etcd-servers together with %v, which then mean nothing", embeddedFlags)
					}
					for _, s := range strings.Split(f["etcd-servers"], ",") {
						if u, err := url.Parse(s); err != nil || u.Scheme != "https" {
							report(w, "etcd server %q is not https://", s)
						}
					}
					for _, k := range []string{"etcd-cafile", "etcd-certfile", "etcd-keyfile"} {
						if f[k] == "" {
							report(w, "--etcd-servers without --%s: etcd must require client certificates", k)
						} else if mountFor(c, f[k]) == nil {
							report(w, "--%s=%s is on no volume", k, f[k])
						}
					}
					continue
				}
				// The embedded etcd: one member per pod, so one pod and one data set.
				if w.replicas != 1 {
					report(w, "%d replicas (-1: one per node) with the embedded etcd: every replica has its own data set", w.replicas)
				}
				if w.kind == "Deployment" && !w.recreate {
					report(w, "the embedded etcd with a rolling update: the new pod starts while the old one holds the data directory")
				}
				if dir := f["embedded-etcd-data-dir"]; dir == "" {
					report(w, "the embedded etcd without --embedded-etcd-data-dir")
				} else if p := m.dataVolumeProblem(w, c, dir); p != "" {
					report(w, "%s", p)
				}
			case isEtcd(c):
				if w.kind != "StatefulSet" {
					report(w, "etcd members need the stable names and own volumes of a StatefulSet")
				}
				if dir := f["data-dir"]; dir == "" {
					report(w, "etcd without --data-dir")
				} else if p := m.dataVolumeProblem(w, c, dir); p != "" {
					report(w, "%s", p)
				}
				for _, k := range []string{"client-cert-auth", "peer-client-cert-auth"} {
					if f[k] != "true" {
						report(w, "etcd without --%s=true", k)
					}
				}
				for _, k := range []string{"trusted-ca-file", "peer-trusted-ca-file", "cert-file", "peer-cert-file"} {
					if f[k] == "" {
						report(w, "etcd without --%s", k)
					}
				}
				for _, k := range []string{"listen-client-urls", "listen-peer-urls"} {
					for _, s := range strings.Split(f[k], ",") {
						if !strings.HasPrefix(s, "https://") {
							report(w, "etcd --%s %q is not https://", k, s)
						}
					}
				}
			}
		}
	}

	// A PodDisruptionBudget that no eviction can satisfy blocks node drains for good.
	for _, o := range m.of("PodDisruptionBudget") {
		pdb := convert[policyv1.PodDisruptionBudget](t, o)
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil {
			problems = append(problems, fmt.Sprintf("PodDisruptionBudget %s/%s: %v", pdb.Namespace, pdb.Name, err))
			continue
		}
		for _, w := range workloads {
			if w.namespace != pdb.Namespace || w.replicas < 0 || !sel.Matches(labels.Set(w.pod.Labels)) {
				continue
			}
			if mu := pdb.Spec.MaxUnavailable; mu != nil && (mu.String() == "0" || mu.String() == "0%") {
				problems = append(problems, fmt.Sprintf("PodDisruptionBudget %s/%s: maxUnavailable 0 refuses every eviction of %s", pdb.Namespace, pdb.Name, w))
			}
			if ma := pdb.Spec.MinAvailable; ma != nil && ma.Type == intstr.Int && ma.IntValue() >= w.replicas {
				problems = append(problems, fmt.Sprintf("PodDisruptionBudget %s/%s: minAvailable %d with %d replicas refuses every eviction of %s",
					pdb.Namespace, pdb.Name, ma.IntValue(), w.replicas, w))
			}
		}
	}
	return problems
}

// etcdClusterProblems checks the etcd StatefulSet of the default base: 3 members on their own
// PVCs that can find each other, and kruise-apiserver pointed at exactly those members.
func (m manifests) etcdClusterProblems(t testing.TB) []string {
	t.Helper()
	var problems []string
	var etcd *workload
	var apiservers []workload
	for _, w := range m.workloads(t) {
		for _, c := range w.pod.Spec.Containers {
			if isEtcd(c) {
				etcd = &w
			}
			if isKruiseAPIServer(c) {
				apiservers = append(apiservers, w)
			}
		}
	}
	if etcd == nil || etcd.sts == nil {
		return []string{"no etcd StatefulSet"}
	}
	sts := etcd.sts
	if etcd.replicas != 3 {
		problems = append(problems, fmt.Sprintf("%s: %d replicas, want 3", etcd, etcd.replicas))
	}
	if len(sts.Spec.VolumeClaimTemplates) == 0 {
		problems = append(problems, fmt.Sprintf("%s: no volumeClaimTemplates", etcd))
	}
	// OrderedReady would wait for etcd-0 to be Ready before starting etcd-1, and etcd-0 is
	// never Ready without quorum.
	if sts.Spec.PodManagementPolicy != appsv1.ParallelPodManagement {
		problems = append(problems, fmt.Sprintf("%s: podManagementPolicy %q, want Parallel", etcd, sts.Spec.PodManagementPolicy))
	}
	headless := m.find("Service", sts.Namespace, sts.Spec.ServiceName)
	if headless == nil {
		problems = append(problems, fmt.Sprintf("%s: serviceName %q is not in the manifests", etcd, sts.Spec.ServiceName))
	} else {
		svc := convert[corev1.Service](t, headless)
		if svc.Spec.ClusterIP != corev1.ClusterIPNone || !svc.Spec.PublishNotReadyAddresses {
			problems = append(problems, fmt.Sprintf("Service %s/%s: want clusterIP None and publishNotReadyAddresses (members find each other before they are Ready)", svc.Namespace, svc.Name))
		}
	}
	members := map[string]bool{}
	for i := 0; i < etcd.replicas; i++ {
		members[fmt.Sprintf("%s-%d.%s.%s.svc", sts.Name, i, sts.Spec.ServiceName, sts.Namespace)] = true
	}
	f := flags(etcd.pod.Spec.Containers[0].Args)
	initial := strings.Split(f["initial-cluster"], ",")
	if len(initial) != etcd.replicas {
		problems = append(problems, fmt.Sprintf("%s: --initial-cluster has %d members, replicas %d", etcd, len(initial), etcd.replicas))
	}
	for _, e := range initial {
		name, peerURL, _ := strings.Cut(e, "=")
		u, err := url.Parse(peerURL)
		if err != nil || u.Scheme != "https" || !members[u.Hostname()] || !strings.HasPrefix(u.Hostname(), name+".") {
			problems = append(problems, fmt.Sprintf("%s: --initial-cluster entry %q is not https://<pod>.<headless service>.<namespace>.svc of one of its pods", etcd, e))
		}
	}
	var pdb bool
	for _, o := range m.of("PodDisruptionBudget") {
		p := convert[policyv1.PodDisruptionBudget](t, o)
		if sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector); err == nil && p.Namespace == sts.Namespace &&
			sel.Matches(labels.Set(sts.Spec.Template.Labels)) && p.Spec.MaxUnavailable != nil && p.Spec.MaxUnavailable.String() == "1" {
			pdb = true
		}
	}
	if !pdb {
		problems = append(problems, fmt.Sprintf("%s: no PodDisruptionBudget with maxUnavailable 1", etcd))
	}
	if len(apiservers) != 1 {
		return append(problems, fmt.Sprintf("%d kruise-apiserver workloads, want 1", len(apiservers)))
	}
	api := apiservers[0]
	if api.replicas < 2 {
		problems = append(problems, fmt.Sprintf("%s: %d replicas, want 2 or more on the etcd cluster", api, api.replicas))
	}
	for _, c := range api.pod.Spec.Containers {
		if !isKruiseAPIServer(c) {
			continue
		}
		servers := strings.Split(flags(c.Args)["etcd-servers"], ",")
		seen := map[string]bool{}
		for _, s := range servers {
			u, err := url.Parse(s)
			if err != nil || !members[u.Hostname()] || u.Port() != "2379" {
				problems = append(problems, fmt.Sprintf("%s: etcd server %q is not a member of %s", api, s, etcd))
				continue
			}
			seen[u.Hostname()] = true
		}
		if len(seen) != len(members) {
			problems = append(problems, fmt.Sprintf("%s: --etcd-servers names %d of the %d members", api, len(seen), len(members)))
		}
	}
	return problems
}
