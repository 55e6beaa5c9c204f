package daemon

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// newRecorder records events through a client of its own, so events never take the
// budget of status writes.
func newRecorder(cfg *rest.Config, node string) (record.EventRecorder, func(), error) {
	eventsCfg := rest.CopyConfig(cfg)
	eventsCfg.QPS, eventsCfg.Burst = 5, 10
	client, err := kubernetes.NewForConfig(eventsCfg)
	if err != nil {
		return nil, nil, err
	}
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	// Events name the objects the daemon reads: ContainerRecreateRequests in v1alpha1,
	// NodeImages in v1beta1 (which reports status.waiting).
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	utilruntime.Must(v1beta1.AddToScheme(scheme))
	broadcaster := record.NewBroadcaster(record.WithContext(context.Background()))
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	return broadcaster.NewRecorder(scheme, corev1.EventSource{Component: "kruise-node-daemon", Host: node}), broadcaster.Shutdown, nil
}
