package imagepredownload

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A CloneSet annotated apps.kruise.io/image-predownload-ignored gets no pre-download:
// rolled beside one without the annotation, whose partitioned rollout makes a job (as
// in TestPartitionedCloneSetPreDownloads), it gets none.
func TestIgnoredCloneSetDoesNotPreDownload(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	client := kc.AppsV1alpha1().CloneSets(ns)
	ignored := partitionedCloneSet(t, client, "ignored", map[string]string{"apps.kruise.io/image-predownload-ignored": "true"})
	control := partitionedCloneSet(t, client, "control", nil)
	rollImage(t, client, "ignored")
	rollImage(t, client, "control")

	jobsOf := func(cs *v1alpha1.CloneSet) (int, error) {
		jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(ctx, metav1.ListOptions{LabelSelector: "apps.kruise.io/image-predownload-owner-uid=" + string(cs.UID)})
		if err != nil {
			return 0, err
		}
		return len(jobs.Items), nil
	}
	// The control's job: the controller has acted on rollouts in this state.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		n, err := jobsOf(control)
		return n > 0, err
	})
	framework.Consistently(t, 2*time.Second, func() (bool, string) {
		n, err := jobsOf(ignored)
		if err != nil {
			return false, err.Error()
		}
		return n == 0, fmt.Sprintf("%d pre-download job(s) for an ignored CloneSet", n)
	})
}
