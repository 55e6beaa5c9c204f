package manager

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// preferProtobuf makes the typed clients (kube and Kruise) speak protobuf, with JSON
// accepted in answers, as kube-controller-manager does. Every watch event of every pod
// in the cluster is decoded by the informers; from JSON that costs several times the
// CPU and garbage of protobuf, which at thousands of pods is most of the controller's
// work. Both kube-apiserver and kruise-apiserver serve protobuf for every type the
// typed clients use. The dynamic and metadata clients set their own content types, and
// patches are sent in their patch type whatever this says.
func preferProtobuf(cfg *rest.Config) {
	cfg.ContentType = runtime.ContentTypeProtobuf
	cfg.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
}
