package cluster

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kruise-native/kruise-native/examples"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// kruiseAPIServices are the four APIServices kruise-apiserver serves.
var kruiseAPIServices = []string{"v1beta1.apps.kruise.io", "v1alpha1.apps.kruise.io", "v1beta1.policy.kruise.io", "v1alpha1.policy.kruise.io"}

var apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

// suite is one cluster and the clients the steps use.
type suite struct {
	c       *harness.Cluster
	kruise  kruiseclient.Interface
	dyn     dynamic.Interface
	version string
	timings []timing
	// outside is set while the chart runs with etcd.mode=external on it; otherwise
	// the chart runs with etcd.mode=single.
	outside *harness.OutsideEtcd
	// nextBuilt: the images of the upgrade's tag are built and imported.
	nextBuilt bool
}

type timing struct {
	step string
	took time.Duration
	ok   bool
}

func newSuite(t *testing.T, c *harness.Cluster, version string) *suite {
	kc, err := kruiseclient.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	return &suite{c: c, kruise: kc, dyn: dyn, version: version}
}

// step runs fn as a subtest, logs how long it took and records it for the summary.
func (s *suite) step(t *testing.T, name string, fn func(t *testing.T)) bool {
	begin := time.Now()
	ran := false
	ok := t.Run(name, func(t *testing.T) {
		ran = true
		t.Logf("STEP %s", name)
		fn(t)
	})
	if !ran { // left out by -run
		return ok
	}
	d := time.Since(begin).Round(100 * time.Millisecond)
	s.timings = append(s.timings, timing{name, d, ok})
	t.Logf("STEP %-48s %8s %s", name, d, map[bool]string{true: "ok", false: "FAILED"}[ok])
	return ok
}

// summary logs every step's duration.
func (s *suite) summary(t *testing.T) {
	var b strings.Builder
	for _, tm := range s.timings {
		fmt.Fprintf(&b, "\n  %-48s %8s %s", tm.step, tm.took, map[bool]string{true: "ok", false: "FAILED"}[tm.ok])
	}
	t.Logf("steps:%s", b.String())
}

// run runs a program of _output/bin (kubectl, helm) against the cluster, with stdin.
func (s *suite) run(ctx context.Context, stdin string, bin string, args ...string) (string, error) {
	cmd := s.c.Command(ctx, bin, args...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("%s %s: %w: %s", bin, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

func (s *suite) kubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, err := s.run(context.Background(), "", "kubectl", args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// apply applies manifest (kubectl apply -f -), after replacing each old with new.
func (s *suite) apply(t *testing.T, manifest string, replace ...string) string {
	t.Helper()
	manifest = strings.NewReplacer(replace...).Replace(manifest)
	out, err := s.run(context.Background(), manifest, "kubectl", "apply", "-f", "-")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// example reads a manifest of the repository's examples/.
func example(t *testing.T, name string) string {
	t.Helper()
	b, err := examples.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitAPIServicesAvailable waits until every Kruise APIService reports Available.
func (s *suite) waitAPIServicesAvailable(ctx context.Context, timeout time.Duration) error {
	return harness.WaitFor(ctx, timeout, 250*time.Millisecond, "Kruise APIServices Available", func(ctx context.Context) error {
		for _, name := range kruiseAPIServices {
			u, err := s.dyn.Resource(apiServiceGVR).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if !conditionTrue(u, "Available") {
				return fmt.Errorf("%s not Available", name)
			}
		}
		return nil
	})
}

func conditionTrue(u *unstructured.Unstructured, typ string) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			return m["status"] == "True"
		}
	}
	return false
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// TestCluster is the suite, in order: each step builds on the state the previous ones
// left, as a user following the README would.
func TestCluster(t *testing.T) {
	c, version := upCluster(t)
	s := newSuite(t, c, version)
	defer s.summary(t)
	if !s.step(t, "node runs a pod", s.testNode) {
		return
	}
	// The chart as the README installs it, then every example, an upgrade under load, a
	// containerd restart and the uninstall; then the same examples on the kustomize
	// variant.
	uninstalled := false
	if s.step(t, "helm install (etcd.mode=single)", s.testHelmInstall) {
		s.runExamples(t, "")
		s.step(t, "helm upgrade under load", s.testHelmUpgradeUnderLoad)
		s.step(t, "containerd restart", s.testContainerdRestart)
		uninstalled = s.step(t, "helm uninstall", s.testHelmUninstall)
	}
	kustomizeDeleted := false
	if uninstalled && s.step(t, "kubectl apply -k (single overlay)", s.testKustomizeInstall) {
		s.runExamples(t, "kustomize: ")
		kustomizeDeleted = s.step(t, "kubectl delete -k", s.testKustomizeDelete)
	}
	// Two kruise-apiserver replicas on an etcd outside the pods: an upgrade under the
	// same load fails no request.
	if kustomizeDeleted && s.step(t, "helm install (etcd.mode=external, 2 replicas)", s.testHelmInstallExternalEtcd) {
		s.step(t, "CloneSet basic (external etcd)", s.testCloneSetBasic)
		s.step(t, "helm upgrade under load (2 replicas)", s.testHelmUpgradeUnderLoad)
		s.step(t, "helm uninstall (external etcd)", s.testHelmUninstall)
	}
}

// runExamples runs the examples of every kind, each cleaning up after itself.
func (s *suite) runExamples(t *testing.T, prefix string) {
	for _, st := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"CloneSet basic", s.testCloneSetBasic},
		{"CloneSet in-place update", s.testCloneSetInPlace},
		{"CloneSet env from annotation", s.testCloneSetEnvFromAnnotation},
		{"CloneSet container priority", s.testCloneSetContainerPriority},
		{"CloneSet podsToDelete", s.testCloneSetPodsToDelete},
		{"CloneSet scale-up limited", s.testCloneSetScaleLimited},
		{"Advanced StatefulSet", s.testAdvancedStatefulSet},
		{"Advanced DaemonSet", s.testAdvancedDaemonSet},
		{"BroadcastJob", s.testBroadcastJob},
		{"AdvancedCronJob", s.testAdvancedCronJob},
		{"SidecarSet injection and upgrade", s.testSidecarSet},
		{"SidecarSet policies", s.testSidecarSetPolicies},
		{"SidecarSet hot upgrade", s.testSidecarSetHotUpgrade},
		{"PodUnavailableBudget", s.testPodUnavailableBudget},
		{"WorkloadSpread", s.testWorkloadSpread},
		{"UnitedDeployment", s.testUnitedDeployment},
		{"ContainerRecreateRequest", s.testContainerRecreateRequest},
		{"ImagePullJob and NodeImage", s.testImagePullJob},
		{"ResourceDistribution", s.testResourceDistribution},
		{"deletion protection", s.testDeletionProtection},
		{"container launch priority", s.testContainerLaunchPriority},
	} {
		s.step(t, prefix+st.name, st.fn)
	}
}
