package advancedcronjob

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func examplesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(framework.Get(t).Root, "examples")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("documented examples not found at %s: %v", dir, err)
	}
	return dir
}

func kruiseClient(t *testing.T) kruiseclient.Interface {
	t.Helper()
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// apply applies a manifest with kubectl in ns.
func apply(t *testing.T, ns, manifest string) {
	t.Helper()
	if out, err := framework.Get(t).KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
}

// getACJ reads an AdvancedCronJob as the controller does (v1beta1).
func getACJ(t *testing.T, ns, name string) (*v1beta1.AdvancedCronJob, error) {
	return kruiseClient(t).AppsV1beta1().AdvancedCronJobs(ns).Get(context.Background(), name, metav1.GetOptions{})
}

// broadcastJobsOf are the BroadcastJobs acj controls, by name.
func broadcastJobsOf(t *testing.T, acj *v1beta1.AdvancedCronJob) (map[string]*v1beta1.BroadcastJob, error) {
	list, err := kruiseClient(t).AppsV1beta1().BroadcastJobs(acj.Namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]*v1beta1.BroadcastJob{}
	for i := range list.Items {
		if ref := metav1.GetControllerOf(&list.Items[i]); ref != nil && ref.UID == acj.UID {
			out[list.Items[i].Name] = &list.Items[i]
		}
	}
	return out, nil
}

// events are the messages of the events of reason recorded on the AdvancedCronJob name.
func events(t *testing.T, ns, name, reason string) ([]string, error) {
	list, err := framework.Get(t).Client.CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{
		FieldSelector: fmt.Sprintf("involvedObject.kind=AdvancedCronJob,involvedObject.name=%s,reason=%s", name, reason)})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Message)
	}
	return out, nil
}

func complete(job *v1beta1.BroadcastJob) bool {
	for _, c := range job.Status.Conditions {
		if c.Type == v1beta1.JobComplete && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func activeNames(acj *v1beta1.AdvancedCronJob) string {
	var names []string
	for _, r := range acj.Status.Active {
		names = append(names, r.Name)
	}
	return strings.Join(names, ",")
}

// result is a WaitFor answer: ok, or why not yet (framework.WaitFor only ends on ok
// with no error).
func result(ok bool, format string, args ...interface{}) (bool, error) {
	if ok {
		return true, nil
	}
	return false, fmt.Errorf(format, args...)
}
