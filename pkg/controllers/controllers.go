// Package controllers lists the controllers kruise-controller runs.
package controllers

import (
	"github.com/kruise-native/kruise-native/pkg/controllers/advancedcronjob"
	"github.com/kruise-native/kruise-native/pkg/controllers/broadcastjob"
	"github.com/kruise-native/kruise-native/pkg/controllers/cloneset"
	"github.com/kruise-native/kruise-native/pkg/controllers/containerlaunchpriority"
	"github.com/kruise-native/kruise-native/pkg/controllers/containerrecreaterequest"
	"github.com/kruise-native/kruise-native/pkg/controllers/daemonset"
	"github.com/kruise-native/kruise-native/pkg/controllers/deletionprotection"
	"github.com/kruise-native/kruise-native/pkg/controllers/ephemeraljob"
	"github.com/kruise-native/kruise-native/pkg/controllers/imagelistpulljob"
	"github.com/kruise-native/kruise-native/pkg/controllers/imagepulljob"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	"github.com/kruise-native/kruise-native/pkg/controllers/nodeimage"
	"github.com/kruise-native/kruise-native/pkg/controllers/persistentpodstate"
	"github.com/kruise-native/kruise-native/pkg/controllers/podprobemarker"
	"github.com/kruise-native/kruise-native/pkg/controllers/podunavailablebudget"
	"github.com/kruise-native/kruise-native/pkg/controllers/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/controllers/sidecarset"
	"github.com/kruise-native/kruise-native/pkg/controllers/sidecarterminator"
	"github.com/kruise-native/kruise-native/pkg/controllers/statefulset"
	"github.com/kruise-native/kruise-native/pkg/controllers/uniteddeployment"
	"github.com/kruise-native/kruise-native/pkg/controllers/workloadspread"
	"github.com/kruise-native/kruise-native/pkg/features"
)

// All are the controllers kruise-controller runs, in start order.
var All = []manager.NewFunc{
	cloneset.New,
	statefulset.New,
	daemonset.New,
	broadcastjob.New,
	advancedcronjob.New,
	uniteddeployment.New,
	nodeimage.New,
	// ImagePullJobGate (pkg/features): on here, off in OpenKruise.
	manager.Gated(features.ImagePullJobGate, imagepulljob.New),
	manager.Gated(features.ImagePullJobGate, imagelistpulljob.New),
	containerrecreaterequest.New,
	containerlaunchpriority.New,
	sidecarset.New,
	deletionprotection.New,
	manager.Gated(features.ResourceDistributionGate, resourcedistribution.New),
	podunavailablebudget.New,
	workloadspread.New,
	podprobemarker.New,
	manager.Gated(features.SidecarTerminator, sidecarterminator.New),
	ephemeraljob.New,
	persistentpodstate.New,
}
