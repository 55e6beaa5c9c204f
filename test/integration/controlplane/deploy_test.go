package controlplane

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A variant of the deploy manifests, as a user would apply it.
type deployVariant struct {
	name, dir string
	// etcdCluster: the default base, an etcd StatefulSet that the kruise-apiserver
	// replicas share. Otherwise overlays/single: one replica with the embedded etcd.
	etcdCluster bool
	// certManager: with the cert-manager component, whose kinds are not installed here:
	// rendered and checked, not dry-run.
	certManager bool
}

func deployVariants(t *testing.T, root string) []deployVariant {
	base := filepath.Join(root, "artifacts/deploy")
	single := filepath.Join(base, "overlays/single")
	return []deployVariant{
		{name: "default", dir: base, etcdCluster: true},
		{name: "single", dir: single},
		{name: "cert-manager", dir: withCertManager(t, base), etcdCluster: true, certManager: true},
		{name: "single-cert-manager", dir: withCertManager(t, single), certManager: true},
	}
}

// withCertManager writes an overlay of dir with the cert-manager component (a kustomize
// Component is used from an overlay) and returns its directory.
func withCertManager(t *testing.T, dir string) string {
	t.Helper()
	overlay := t.TempDir()
	rel, err := filepath.Rel(overlay, dir)
	if err != nil {
		t.Fatal(err)
	}
	component, err := filepath.Rel(overlay, filepath.Join(framework.Get(t).Root, "artifacts/deploy/cert-manager"))
	if err != nil {
		t.Fatal(err)
	}
	kustomization := "resources:\n- " + rel + "\ncomponents:\n- " + component + "\n"
	if err := os.WriteFile(filepath.Join(overlay, "kustomization.yaml"), []byte(kustomization), 0o644); err != nil {
		t.Fatal(err)
	}
	return overlay
}

func render(t *testing.T, c *framework.Cluster, dir string) (string, manifests) {
	t.Helper()
	rendered, _, err := c.Kubectl(t, "kustomize", dir)
	if err != nil {
		t.Fatal(err)
	}
	return rendered, parseManifests(t, rendered)
}

// The kustomize bases for real clusters render, hold the storage invariants (no data set
// split between replicas, none on an emptyDir), and kube-apiserver accepts every object in
// them (server-side dry run: schema, defaulting and admission, nothing stored).
func TestDeployManifestsAreAccepted(t *testing.T) {
	c := framework.Get(t)
	for _, v := range deployVariants(t, c.Root) {
		t.Run(v.name, func(t *testing.T) {
			rendered, objs := render(t, c, v.dir)
			want := map[string]int{"Deployment": 2, "DaemonSet": 1, "APIService": len(framework.KruiseAPIServices)}
			if v.etcdCluster {
				want["StatefulSet"] = 1
				want["PodDisruptionBudget"] = 2 // kruise-apiserver's and etcd's
			} else {
				want["StatefulSet"] = 0
				want["PodDisruptionBudget"] = 0 // one replica: a PDB would block drains
				want["PersistentVolumeClaim"] = 1
			}
			for kind, n := range want {
				if got := len(objs.of(kind)); got != n {
					t.Errorf("%d %s objects, want %d", got, kind, n)
				}
			}
			if len(objs.workloads(t)) == 0 {
				t.Fatal("no workloads parsed from the rendered manifests")
			}
			for _, p := range objs.storageProblems(t) {
				t.Error(p)
			}
			if v.etcdCluster {
				for _, p := range objs.etcdClusterProblems(t) {
					t.Error(p)
				}
				checkEtcdImageVersion(t, c.Root, objs)
			} else {
				for _, o := range objs {
					if o.GetLabels()["app.kubernetes.io/name"] == "etcd" {
						t.Errorf("%s %s/%s of the etcd cluster in the single variant", o.GetKind(), o.GetNamespace(), o.GetName())
					}
				}
				api := kruiseAPIServer(t, objs)
				if f := flags(api.Spec.Template.Spec.Containers[0].Args); f["etcd-servers"] != "" || replicasOf(api.Spec.Replicas) != 1 {
					t.Errorf("the single variant runs %d kruise-apiserver replicas with --etcd-servers=%q, want 1 with the embedded etcd",
						replicasOf(api.Spec.Replicas), f["etcd-servers"])
				}
			}

			if v.certManager {
				certManagerProblems(t, objs)
				return
			}
			out, err := c.KubectlStdin(t, rendered, "apply", "--dry-run=server", "-f", "-")
			if err != nil {
				t.Fatalf("server-side dry run rejected the rendered manifests: %v", err)
			}
			if !strings.Contains(out, "(server dry run)") {
				t.Fatalf("unexpected dry-run output:\n%s", out)
			}
		})
	}
}

// certManagerProblems: cainjector is asked for the caBundles, and every certificate Secret
// that kruise-apiserver and etcd mount is issued by a Certificate.
func certManagerProblems(t *testing.T, objs manifests) {
	t.Helper()
	for _, o := range objs.of("APIService") {
		if o.GetAnnotations()["cert-manager.io/inject-ca-from"] == "" {
			t.Errorf("APIService %s: no cert-manager.io/inject-ca-from annotation for its caBundle", o.GetName())
		}
	}
	issued := map[string]bool{}
	for _, o := range objs.of("Certificate") {
		name, _, _ := unstructured.NestedString(o.Object, "spec", "secretName")
		issued[o.GetNamespace()+"/"+name] = true
	}
	for _, w := range objs.workloads(t) {
		if !slices.ContainsFunc(w.pod.Spec.Containers, func(c corev1.Container) bool { return isKruiseAPIServer(c) || isEtcd(c) }) {
			continue
		}
		for _, v := range w.pod.Spec.Volumes {
			if v.Secret != nil && !issued[w.namespace+"/"+v.Secret.SecretName] {
				t.Errorf("%s mounts Secret %s, which no Certificate of the cert-manager component issues", w, v.Secret.SecretName)
			}
		}
	}
}

// The etcd image is the release that hack/tools builds (and that the local stack and the
// embedded etcd run), so the deployed cluster is the one the tests exercise.
func checkEtcdImageVersion(t *testing.T, root string, objs manifests) {
	t.Helper()
	gomod, err := os.ReadFile(filepath.Join(root, "hack/tools/go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var version string
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "go.etcd.io/etcd/server/v3" {
			version = f[1]
		}
	}
	if version == "" {
		t.Fatal("hack/tools/go.mod does not require go.etcd.io/etcd/server/v3")
	}
	for _, w := range objs.workloads(t) {
		for _, c := range w.pod.Spec.Containers {
			if isEtcd(c) && !strings.HasSuffix(c.Image, ":"+version) {
				t.Errorf("%s runs %s, hack/tools builds etcd %s", w, c.Image, version)
			}
		}
	}
}

func kruiseAPIServer(t *testing.T, objs manifests) *appsv1.Deployment {
	t.Helper()
	o := objs.find("Deployment", "kruise-system", "kruise-apiserver")
	if o == nil {
		t.Fatal("no Deployment kruise-system/kruise-apiserver")
	}
	d := convert[appsv1.Deployment](t, o)
	if len(d.Spec.Template.Spec.Containers) != 1 || !isKruiseAPIServer(d.Spec.Template.Spec.Containers[0]) {
		t.Fatalf("Deployment kruise-apiserver: want one kruise-apiserver container, got %d containers", len(d.Spec.Template.Spec.Containers))
	}
	return d
}

// withoutStorage returns kruise-apiserver's pod template without its storage: the etcd
// flags, and the mounts (and their volumes) that hold the embedded etcd's data or the etcd
// client certificate.
func withoutStorage(d *appsv1.Deployment) corev1.PodTemplateSpec {
	tmpl := *d.Spec.Template.DeepCopy()
	c := &tmpl.Spec.Containers[0]
	f := flags(c.Args)
	var storagePaths []string
	for _, k := range []string{"embedded-etcd-data-dir", "etcd-cafile", "etcd-certfile", "etcd-keyfile"} {
		if f[k] != "" {
			storagePaths = append(storagePaths, f[k])
		}
	}
	c.Args = slices.DeleteFunc(c.Args, func(a string) bool {
		k, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		return strings.HasPrefix(k, "etcd-") || strings.HasPrefix(k, "embedded-etcd-")
	})
	storageVolumes := map[string]bool{}
	for _, p := range storagePaths {
		if m := mountFor(*c, p); m != nil {
			storageVolumes[m.Name] = true
		}
	}
	c.VolumeMounts = slices.DeleteFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return storageVolumes[m.Name] })
	tmpl.Spec.Volumes = slices.DeleteFunc(tmpl.Spec.Volumes, func(v corev1.Volume) bool { return storageVolumes[v.Name] })
	slices.SortFunc(c.VolumeMounts, func(a, b corev1.VolumeMount) int { return strings.Compare(a.MountPath, b.MountPath) })
	slices.SortFunc(tmpl.Spec.Volumes, func(a, b corev1.Volume) int { return strings.Compare(a.Name, b.Name) })
	return tmpl
}

// overlays/single replaces kruise-apiserver's args as a whole (a strategic merge patch
// cannot remove single list items of args): everything but the storage must stay as in the
// base, or the two variants drift apart.
func TestDeploySingleDiffersOnlyInStorage(t *testing.T) {
	c := framework.Get(t)
	_, base := render(t, c, filepath.Join(c.Root, "artifacts/deploy"))
	_, single := render(t, c, filepath.Join(c.Root, "artifacts/deploy/overlays/single"))
	if diff := cmp.Diff(withoutStorage(kruiseAPIServer(t, base)), withoutStorage(kruiseAPIServer(t, single))); diff != "" {
		t.Errorf("kruise-apiserver's pod template differs between artifacts/deploy and overlays/single beyond storage (-base +single):\n%s", diff)
	}
}

// The invariants catch what the base used to be: 2 replicas, each with its own embedded
// etcd on an emptyDir, and an etcd without client certificates on an emptyDir.
func TestDeployInvariantsCatchSplitData(t *testing.T) {
	objs := parseManifests(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: kruise-apiserver, namespace: kruise-system}
spec:
  replicas: 2
  selector: {matchLabels: {app: kruise-apiserver}}
  template:
    metadata: {labels: {app: kruise-apiserver}}
    spec:
      containers:
      - name: kruise-apiserver
        image: registry.example/kruise-native/kruise-apiserver:v1
        args: [--embedded-etcd-data-dir=/var/lib/kruise-apiserver/etcd]
        volumeMounts: [{name: etcd-data, mountPath: /var/lib/kruise-apiserver/etcd}]
      volumes: [{name: etcd-data, emptyDir: {}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: kruise-apiserver, namespace: kruise-system}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: kruise-apiserver}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: etcd, namespace: kruise-system}
spec:
  replicas: 3
  serviceName: etcd
  selector: {matchLabels: {app: etcd}}
  template:
    metadata: {labels: {app: etcd}}
    spec:
      containers:
      - name: etcd
        image: quay.io/coreos/etcd:v3.6.8
        args: [--data-dir=/var/lib/etcd, --listen-client-urls=http://0.0.0.0:2379]
        volumeMounts: [{name: data, mountPath: /var/lib/etcd}]
      volumes: [{name: data, emptyDir: {}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: other, namespace: kruise-system}
spec:
  replicas: 1
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: other}}
    spec:
      containers:
      - name: kruise-apiserver
        image: kruise-native/kruise-apiserver@sha256:0000000000000000000000000000000000000000000000000000000000000000
        args: [--etcd-servers=http://etcd:2379, --embedded-etcd-client-port=2379]
`)
	problems := objs.storageProblems(t)
	for _, want := range []string{
		"Deployment kruise-system/kruise-apiserver: 2 replicas",
		"Deployment kruise-system/kruise-apiserver: the embedded etcd with a rolling update",
		"Deployment kruise-system/kruise-apiserver: data directory /var/lib/kruise-apiserver/etcd is on emptyDir",
		"PodDisruptionBudget kruise-system/kruise-apiserver: minAvailable 2 with 2 replicas",
		"StatefulSet kruise-system/etcd: data directory /var/lib/etcd is on emptyDir",
		"StatefulSet kruise-system/etcd: etcd without --client-cert-auth=true",
		`StatefulSet kruise-system/etcd: etcd --listen-client-urls "http://0.0.0.0:2379" is not https://`,
		"Deployment kruise-system/other: --etcd-servers together with [--embedded-etcd-client-port]",
		`Deployment kruise-system/other: etcd server "http://etcd:2379" is not https://`,
		"Deployment kruise-system/other: --etcd-servers without --etcd-certfile",
	} {
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("no problem reported starting with %q", want)
		}
	}
	if t.Failed() {
		t.Logf("reported:\n%s", strings.Join(problems, "\n"))
	}
	if p := objs.etcdClusterProblems(t); !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, "no volumeClaimTemplates") }) {
		t.Errorf("etcdClusterProblems misses the missing volumeClaimTemplates: %q", p)
	}
	if got := imageName("registry.example:5000/a/etcd:v3.6.8"); got != "etcd" {
		t.Errorf("imageName = %q, want etcd", got)
	}
}
