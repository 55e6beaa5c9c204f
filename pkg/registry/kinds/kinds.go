// Package kinds lists every resource kruise-apiserver serves. Adding a kind is its
// types, its validation, one resource.Kind in pkg/registry/<group>/<kind>, and a line
// here.
package kinds

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/registry/apps/advancedcronjob"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/broadcastjob"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/containerrecreaterequest"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/daemonset"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/ephemeraljob"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/imagelistpulljob"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/imagepulljob"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/nodeimage"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/nodepodprobe"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/persistentpodstate"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/podprobemarker"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/sidecarset"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/statefulset"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/uniteddeployment"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/workloadspread"
	"github.com/kruise-native/kruise-native/pkg/registry/policy/podunavailablebudget"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// All returns the served resources.
func All() []resource.Descriptor {
	return []resource.Descriptor{
		cloneset.Kind,
		statefulset.Kind,
		daemonset.Kind,
		broadcastjob.Kind,
		advancedcronjob.Kind,
		uniteddeployment.Kind,
		sidecarset.Kind,
		nodeimage.Kind,
		imagepulljob.Kind,
		imagelistpulljob.Kind,
		containerrecreaterequest.Kind,
		resourcedistribution.Kind,
		workloadspread.Kind,
		podprobemarker.Kind,
		nodepodprobe.Kind,
		ephemeraljob.Kind,
		persistentpodstate.Kind,
		podunavailablebudget.Kind,
	}
}

// ActivePods is how many pods an object of a served resource still asks for or runs,
// and the field that says so, read through its kind's descriptor; false for kinds
// that run no pods.
func ActivePods(gr schema.GroupResource, obj runtime.Object) (int32, string, bool) {
	if k, ok := byResource()[gr]; ok {
		return k.ActivePods(obj)
	}
	return 0, "", false
}

// byResource indexes All once: deletion protection asks on every DELETE (every item
// of a deletecollection).
var byResource = sync.OnceValue(func() map[schema.GroupResource]resource.Descriptor {
	m := map[schema.GroupResource]resource.Descriptor{}
	for _, k := range All() {
		m[k.GroupResource()] = k
	}
	return m
})
