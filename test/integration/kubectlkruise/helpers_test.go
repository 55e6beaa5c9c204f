package kubectlkruise

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

var pathOnce sync.Once

// kk runs `kubectl kruise ARGS` with _output/bin first on PATH, as the README tells
// users to: kubectl finds the plugin there, exactly as it would on their machine.
func kk(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	c := framework.Get(t)
	pathOnce.Do(func() {
		os.Setenv("PATH", c.BinDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	})
	// kubectl refuses flags before a plugin's name, so --kubeconfig (which
	// framework.Kubectl puts first) goes last here, or before "--" (after it, it
	// would be part of the command exec runs).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	flags, command := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		flags, command = args[:i], args[i:]
	}
	argv := append(append(append([]string{"kruise"}, flags...), "--kubeconfig="+c.Kubeconfig), command...)
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "kubectl"), argv...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err = cmd.Run(); err != nil {
		err = fmt.Errorf("kubectl kruise %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), errOut.String(), err
}

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// newCloneSet is a CloneSet of nginx pods that updates in place.
func newCloneSet(name string, replicas int32, image string) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{Type: v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType},
		},
	}
}

func createCloneSet(t *testing.T, ns string, cs *v1alpha1.CloneSet) {
	t.Helper()
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(context.Background(), cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func getCloneSet(t *testing.T, ns, name string) *v1alpha1.CloneSet {
	t.Helper()
	cs, err := kruise(t).AppsV1alpha1().CloneSets(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// podsOf lists the live pods a CloneSet controls.
func podsOf(t *testing.T, ns string, cs *v1alpha1.CloneSet) []corev1.Pod {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && ref.UID == cs.UID && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// waitRolledOut waits until every pod of the CloneSet runs image and is ready.
func waitRolledOut(t *testing.T, ns, name, image string, replicas int) *v1alpha1.CloneSet {
	t.Helper()
	var cs *v1alpha1.CloneSet
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		cs = getCloneSet(t, ns, name)
		pods := podsOf(t, ns, cs)
		if len(pods) != replicas || cs.Status.ObservedGeneration != cs.Generation || cs.Status.UpdatedReadyReplicas != int32(replicas) {
			return false, nil
		}
		for _, p := range pods {
			if p.Spec.Containers[0].Image != image {
				return false, nil
			}
		}
		return true, nil
	})
	return cs
}

func mustContain(t *testing.T, what, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Fatalf("%s = %q, want it to contain %q", what, got, want)
	}
}
