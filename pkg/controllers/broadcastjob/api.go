package broadcastjob

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// api is the job's side of podworkload.API.
type api struct{ client kruiseclient.Interface }

func (a api) Get(ctx context.Context, namespace, name string) (*v1beta1.BroadcastJob, error) {
	return a.client.AppsV1beta1().BroadcastJobs(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (api) Status(job *v1beta1.BroadcastJob) v1beta1.BroadcastJobStatus { return job.Status }

func (a api) UpdateStatus(ctx context.Context, job *v1beta1.BroadcastJob, status v1beta1.BroadcastJobStatus) (*v1beta1.BroadcastJob, error) {
	out := job.DeepCopy()
	out.Status = status
	return a.client.AppsV1beta1().BroadcastJobs(out.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{FieldManager: ControllerName})
}
