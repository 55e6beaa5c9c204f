package kinds_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/policy"
	policyv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
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
	"github.com/kruise-native/kruise-native/pkg/registry/kinds"
	"github.com/kruise-native/kruise-native/pkg/registry/policy/podunavailablebudget"
	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// hub defaults a v1alpha1 object and converts it to the hub type, as the registry
// receives objects.
func hub[T runtime.Object](in runtime.Object, out T) T {
	scheme.Scheme.Default(in)
	if err := scheme.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func podTemplate(app string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}},
	}
}

func selector(app string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
}

var none resource.Deps

// conformance runs the registry conformance suite for each served kind, with the
// fixture that kind needs.
var conformance = map[schema.GroupResource]func(t *testing.T){
	cloneset.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, cloneset.Kind, registrytest.Fixture[*apps.CloneSet]{
			Name: "cs",
			Valid: func() *apps.CloneSet {
				return hub(&v1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.CloneSetSpec{Selector: selector("cs"), Template: podTemplate("cs")}}, &apps.CloneSet{})
			},
			BreakCreate:  func(cs *apps.CloneSet) { cs.Spec.Template.Labels = map[string]string{"app": "other"} },
			BreakUpdate:  func(cs *apps.CloneSet) { cs.Spec.Selector = selector("changed") },
			ChangeSpec:   func(cs *apps.CloneSet) { *cs.Spec.Replicas++ },
			ChangeStatus: func(cs *apps.CloneSet) { cs.Status.Replicas++ },
		}, none)
	},
	statefulset.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, statefulset.Kind, registrytest.Fixture[*apps.StatefulSet]{
			Name: "ss",
			Valid: func() *apps.StatefulSet {
				return hub(&v1alpha1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "ss", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.StatefulSetSpec{Selector: selector("ss"), Template: podTemplate("ss")}}, &apps.StatefulSet{})
			},
			BreakCreate:  func(ss *apps.StatefulSet) { ss.Spec.Template.Labels = map[string]string{"app": "other"} },
			BreakUpdate:  func(ss *apps.StatefulSet) { ss.Spec.Selector = selector("changed") },
			ChangeSpec:   func(ss *apps.StatefulSet) { *ss.Spec.Replicas++ },
			ChangeStatus: func(ss *apps.StatefulSet) { ss.Status.Replicas++ },
		}, none)
	},
	daemonset.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, daemonset.Kind, registrytest.Fixture[*apps.DaemonSet]{
			Name: "ds",
			Valid: func() *apps.DaemonSet {
				return hub(&v1alpha1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.DaemonSetSpec{Selector: selector("ds"), Template: podTemplate("ds")}}, &apps.DaemonSet{})
			},
			BreakCreate:  func(ds *apps.DaemonSet) { ds.Spec.Template.Labels = map[string]string{"app": "other"} },
			BreakUpdate:  func(ds *apps.DaemonSet) { ds.Spec.Selector = selector("changed") },
			ChangeSpec:   func(ds *apps.DaemonSet) { *ds.Spec.UpdateStrategy.RollingUpdate.Partition++ },
			ChangeStatus: func(ds *apps.DaemonSet) { ds.Status.DesiredNumberScheduled++ },
		}, none)
	},
	broadcastjob.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, broadcastjob.Kind, registrytest.Fixture[*apps.BroadcastJob]{
			Name: "bcj",
			Valid: func() *apps.BroadcastJob {
				tmpl := podTemplate("bcj")
				tmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
				return hub(&v1alpha1.BroadcastJob{ObjectMeta: metav1.ObjectMeta{Name: "bcj", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.BroadcastJobSpec{Template: tmpl}}, &apps.BroadcastJob{})
			},
			BreakCreate:  func(j *apps.BroadcastJob) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways },
			BreakUpdate:  func(j *apps.BroadcastJob) { j.Spec.FailurePolicy.RestartLimit = -1 },
			ChangeSpec:   func(j *apps.BroadcastJob) { j.Spec.Paused = !j.Spec.Paused },
			ChangeStatus: func(j *apps.BroadcastJob) { j.Status.Desired++ },
		}, none)
	},
	advancedcronjob.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, advancedcronjob.Kind, registrytest.Fixture[*apps.AdvancedCronJob]{
			Name: "acj",
			Valid: func() *apps.AdvancedCronJob {
				tmpl := podTemplate("acj")
				tmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
				return hub(&v1alpha1.AdvancedCronJob{ObjectMeta: metav1.ObjectMeta{Name: "acj", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.AdvancedCronJobSpec{Schedule: "*/1 * * * *", Template: v1alpha1.CronJobTemplate{
						BroadcastJobTemplate: &v1alpha1.BroadcastJobTemplateSpec{Spec: v1alpha1.BroadcastJobSpec{Template: tmpl}},
					}}}, &apps.AdvancedCronJob{})
			},
			BreakCreate:  func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "every minute" },
			BreakUpdate:  func(j *apps.AdvancedCronJob) { j.Spec.TimeZone = new("Mars/Olympus_Mons") },
			ChangeSpec:   func(j *apps.AdvancedCronJob) { j.Spec.Schedule = "*/5 * * * *" },
			ChangeStatus: func(j *apps.AdvancedCronJob) { j.Status.Type = apps.BroadcastJobTemplate },
		}, none)
	},
	uniteddeployment.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, uniteddeployment.Kind, registrytest.Fixture[*apps.UnitedDeployment]{
			Name: "ud",
			Valid: func() *apps.UnitedDeployment {
				return hub(&v1alpha1.UnitedDeployment{ObjectMeta: metav1.ObjectMeta{Name: "ud", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.UnitedDeploymentSpec{Selector: selector("ud"),
						Template: v1alpha1.SubsetTemplate{CloneSetTemplate: &v1alpha1.CloneSetTemplateSpec{
							Spec: v1alpha1.CloneSetSpec{Selector: selector("ud"), Template: podTemplate("ud")}}},
						Topology: v1alpha1.Topology{Subsets: []v1alpha1.Subset{{Name: "a"}, {Name: "b"}}}}}, &apps.UnitedDeployment{})
			},
			BreakCreate:  func(ud *apps.UnitedDeployment) { ud.Spec.Topology.Subsets[1].Name = "a" },
			BreakUpdate:  func(ud *apps.UnitedDeployment) { ud.Spec.Selector = selector("changed") },
			ChangeSpec:   func(ud *apps.UnitedDeployment) { *ud.Spec.Replicas++ },
			ChangeStatus: func(ud *apps.UnitedDeployment) { ud.Status.Replicas++ },
		}, none)
	},
	sidecarset.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, sidecarset.Kind, registrytest.Fixture[*apps.SidecarSet]{
			Name: "log",
			Valid: func() *apps.SidecarSet {
				return hub(&v1alpha1.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "log"},
					Spec: v1alpha1.SidecarSetSpec{Selector: selector("nginx"),
						Containers: []v1alpha1.SidecarContainer{{Container: corev1.Container{Name: "sidecar1", Image: "busybox:1.36"}}}}},
					&apps.SidecarSet{})
			},
			BreakCreate:  func(ss *apps.SidecarSet) { ss.Spec.Containers[0].Image = "" },
			BreakUpdate:  func(ss *apps.SidecarSet) { ss.Spec.Containers[0].Image = "" },
			ChangeSpec:   func(ss *apps.SidecarSet) { ss.Spec.Containers[0].Image = "busybox:1.37" },
			ChangeStatus: func(ss *apps.SidecarSet) { ss.Status.MatchedPods++ },
		}, none)
	},
	nodeimage.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, nodeimage.Kind, registrytest.Fixture[*apps.NodeImage]{
			Name: "node-1",
			Valid: func() *apps.NodeImage {
				return hub(&v1alpha1.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
					Spec: v1alpha1.NodeImageSpec{Images: map[string]v1alpha1.ImageSpec{"ubuntu": {Tags: []v1alpha1.ImageTagSpec{{Tag: "latest"}}}}}},
					&apps.NodeImage{})
			},
			BreakCreate: func(ni *apps.NodeImage) { ni.Spec.Images["Bad Name"] = ni.Spec.Images["ubuntu"] },
			BreakUpdate: func(ni *apps.NodeImage) { ni.Spec.Images["Bad Name"] = ni.Spec.Images["ubuntu"] },
			ChangeSpec: func(ni *apps.NodeImage) {
				orig := ni.Spec.Images["ubuntu"]
				spec := *orig.DeepCopy()
				spec.Tags[0].Version++
				ni.Spec.Images = map[string]apps.ImageSpec{"ubuntu": spec}
			},
			ChangeStatus: func(ni *apps.NodeImage) { ni.Status.Desired++ },
		}, none)
	},
	imagepulljob.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, imagepulljob.Kind, registrytest.Fixture[*apps.ImagePullJob]{
			Name: "job",
			Valid: func() *apps.ImagePullJob {
				return hub(&v1alpha1.ImagePullJob{ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.ImagePullJobSpec{Image: "nginx:1.9.1"}}, &apps.ImagePullJob{})
			},
			BreakCreate:  func(j *apps.ImagePullJob) { j.Spec.Image = "" },
			BreakUpdate:  func(j *apps.ImagePullJob) { j.Spec.Image = "Nginx:1" },
			ChangeSpec:   func(j *apps.ImagePullJob) { p := intstr.FromInt32(7); j.Spec.Parallelism = &p },
			ChangeStatus: func(j *apps.ImagePullJob) { j.Status.Desired++ },
		}, none)
	},
	imagelistpulljob.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, imagelistpulljob.Kind, registrytest.Fixture[*apps.ImageListPullJob]{
			Name: "list",
			Valid: func() *apps.ImageListPullJob {
				return hub(&v1alpha1.ImageListPullJob{ObjectMeta: metav1.ObjectMeta{Name: "list", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.ImageListPullJobSpec{Images: []string{"nginx:1.9.1", "busybox:1.36"}}}, &apps.ImageListPullJob{})
			},
			BreakCreate:  func(j *apps.ImageListPullJob) { j.Spec.Images = nil },
			BreakUpdate:  func(j *apps.ImageListPullJob) { j.Spec.Images = []string{"Nginx:1"} },
			ChangeSpec:   func(j *apps.ImageListPullJob) { j.Spec.Images = append(j.Spec.Images, "redis:7") },
			ChangeStatus: func(j *apps.ImageListPullJob) { j.Status.Desired++ },
		}, none)
	},
	containerrecreaterequest.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, containerrecreaterequest.Kind, registrytest.Fixture[*apps.ContainerRecreateRequest]{
			Name: "crr",
			Valid: func() *apps.ContainerRecreateRequest {
				return hub(&v1alpha1.ContainerRecreateRequest{
					ObjectMeta: metav1.ObjectMeta{Name: "crr", Namespace: metav1.NamespaceDefault,
						Labels: map[string]string{v1alpha1.ContainerRecreateRequestNodeNameKey: "node-1"}},
					Spec: v1alpha1.ContainerRecreateRequestSpec{PodName: "pod-1",
						Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}}}},
					&apps.ContainerRecreateRequest{})
			},
			BreakCreate: func(c *apps.ContainerRecreateRequest) { c.Spec.PodName = "" },
			BreakUpdate: func(c *apps.ContainerRecreateRequest) { c.Spec.PodName = "other" },
			ChangeSpec: func(c *apps.ContainerRecreateRequest) {
				c.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "containerd://abc", RestartCount: 1}
			},
			ChangeStatus: func(c *apps.ContainerRecreateRequest) { c.Status.Message = "working on it" },
		}, none)
	},
	podprobemarker.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, podprobemarker.Kind, registrytest.Fixture[*apps.PodProbeMarker]{
			Name: "ppm",
			Valid: func() *apps.PodProbeMarker {
				return hub(&v1alpha1.PodProbeMarker{ObjectMeta: metav1.ObjectMeta{Name: "ppm", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.PodProbeMarkerSpec{Selector: selector("game"), Probes: []v1alpha1.PodContainerProbe{{
						Name: "Idle", ContainerName: "main", PodConditionType: "game.io/idle",
						Probe: v1alpha1.ContainerProbeSpec{Probe: corev1.Probe{ProbeHandler: corev1.ProbeHandler{
							Exec: &corev1.ExecAction{Command: []string{"/idle.sh"}}}}},
					}}}}, &apps.PodProbeMarker{})
			},
			BreakCreate:  func(p *apps.PodProbeMarker) { p.Spec.Probes[0].Probe.Exec = nil },
			BreakUpdate:  func(p *apps.PodProbeMarker) { p.Spec.Selector = selector("other") },
			ChangeSpec:   func(p *apps.PodProbeMarker) { p.Spec.Probes[0].Probe.PeriodSeconds++ },
			ChangeStatus: func(p *apps.PodProbeMarker) { p.Status.MatchedPods++ },
		}, none)
	},
	nodepodprobe.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, nodepodprobe.Kind, registrytest.Fixture[*apps.NodePodProbe]{
			Name: "node-1",
			Valid: func() *apps.NodePodProbe {
				return hub(&v1alpha1.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
					Spec: v1alpha1.NodePodProbeSpec{PodProbes: []v1alpha1.PodProbe{{Name: "pod-1", Namespace: "default", UID: "uid-1",
						Probes: []v1alpha1.ContainerProbe{{Name: "ppm#Idle", ContainerName: "main",
							Probe: v1alpha1.ContainerProbeSpec{Probe: corev1.Probe{ProbeHandler: corev1.ProbeHandler{
								TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}}}}}}}}}}, &apps.NodePodProbe{})
			},
			BreakCreate: func(n *apps.NodePodProbe) { n.Spec.PodProbes[0].Probes[0].Name = "no-separator" },
			BreakUpdate: func(n *apps.NodePodProbe) { n.Spec.PodProbes[0].UID = "" },
			ChangeSpec:  func(n *apps.NodePodProbe) { n.Spec.PodProbes[0].IP = "10.0.0.1" },
			ChangeStatus: func(n *apps.NodePodProbe) {
				n.Status.PodProbeStatuses = []apps.PodProbeStatus{{Name: "pod-1", Namespace: "default", UID: "uid-1",
					ProbeStates: []apps.ContainerProbeState{{Name: "ppm#Idle", State: apps.ProbeSucceeded}}}}
			},
		}, none)
	},
	ephemeraljob.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, ephemeraljob.Kind, registrytest.Fixture[*apps.EphemeralJob]{
			Name: "ejob",
			Valid: func() *apps.EphemeralJob {
				return hub(&v1alpha1.EphemeralJob{ObjectMeta: metav1.ObjectMeta{Name: "ejob", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.EphemeralJobSpec{Selector: selector("app"), Template: v1alpha1.EphemeralContainerTemplateSpec{
						EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
							Name: "debugger", Image: "busybox"}}}}}}, &apps.EphemeralJob{})
			},
			BreakCreate:  func(j *apps.EphemeralJob) { j.Spec.Template.EphemeralContainers[0].Image = "" },
			BreakUpdate:  func(j *apps.EphemeralJob) { j.Spec.Selector = nil },
			ChangeSpec:   func(j *apps.EphemeralJob) { j.Spec.Paused = true },
			ChangeStatus: func(j *apps.EphemeralJob) { j.Status.Matches++ },
		}, none)
	},
	persistentpodstate.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, persistentpodstate.Kind, registrytest.Fixture[*apps.PersistentPodState]{
			Name: "web",
			Valid: func() *apps.PersistentPodState {
				return hub(&v1alpha1.PersistentPodState{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: metav1.NamespaceDefault},
					Spec: v1alpha1.PersistentPodStateSpec{
						TargetReference:            v1alpha1.TargetReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet", Name: "web"},
						RequiredPersistentTopology: &v1alpha1.NodeTopologyTerm{NodeTopologyKeys: []string{"topology.kubernetes.io/zone"}},
					}}, &apps.PersistentPodState{})
			},
			BreakCreate: func(p *apps.PersistentPodState) { p.Spec.RequiredPersistentTopology = nil },
			BreakUpdate: func(p *apps.PersistentPodState) { p.Spec.TargetReference.Name = "other" },
			ChangeSpec: func(p *apps.PersistentPodState) {
				p.Spec.PersistentPodStateRetentionPolicy = apps.PersistentPodStateRetentionPolicyWhenDeleted
			},
			ChangeStatus: func(p *apps.PersistentPodState) {
				p.Status.PodStates = map[string]apps.PodState{"web-0": {NodeName: "node-1",
					NodeTopologyLabels: map[string]string{"topology.kubernetes.io/zone": "a"}}}
			},
		}, none)
	},
	podunavailablebudget.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, podunavailablebudget.Kind, registrytest.Fixture[*policy.PodUnavailableBudget]{
			Name: "pub",
			Valid: func() *policy.PodUnavailableBudget {
				one := intstr.FromInt32(1)
				return hub(&policyv1alpha1.PodUnavailableBudget{ObjectMeta: metav1.ObjectMeta{Name: "pub", Namespace: metav1.NamespaceDefault},
					Spec: policyv1alpha1.PodUnavailableBudgetSpec{Selector: selector("pub"), MaxUnavailable: &one}}, &policy.PodUnavailableBudget{})
			},
			BreakCreate: func(p *policy.PodUnavailableBudget) {
				p.Spec.TargetReference = &policy.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
			},
			BreakUpdate: func(p *policy.PodUnavailableBudget) { p.Spec.MaxUnavailable = nil },
			ChangeSpec: func(p *policy.PodUnavailableBudget) {
				two := intstr.FromInt32(2)
				p.Spec.MaxUnavailable = &two
			},
			ChangeStatus: func(p *policy.PodUnavailableBudget) { p.Status.UnavailableAllowed++ },
		}, none)
	},
	resourcedistribution.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, resourcedistribution.Kind, registrytest.Fixture[*apps.ResourceDistribution]{
			Name: "sample",
			Valid: func() *apps.ResourceDistribution {
				return hub(&v1alpha1.ResourceDistribution{ObjectMeta: metav1.ObjectMeta{Name: "sample"},
					Spec: v1alpha1.ResourceDistributionSpec{
						Resource: runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"},"data":{"lives":"3"}}`)},
						Targets:  v1alpha1.ResourceDistributionTargets{NamespaceLabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"group": "test"}}},
					}}, &apps.ResourceDistribution{})
			},
			BreakCreate: func(d *apps.ResourceDistribution) {
				d.Spec.Resource.Raw = []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}`)
			},
			BreakUpdate: func(d *apps.ResourceDistribution) {
				d.Spec.Resource.Raw = []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"renamed"}}`)
			},
			ChangeSpec: func(d *apps.ResourceDistribution) {
				d.Spec.Resource.Raw = []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"},"data":{"lives":"4"}}`)
			},
			ChangeStatus: func(d *apps.ResourceDistribution) { d.Status.Desired++ },
		}, none)
	},
	workloadspread.Kind.GroupResource(): func(t *testing.T) {
		registrytest.RunConformance(t, workloadspread.Kind, registrytest.Fixture[*apps.WorkloadSpread]{
			Name: "sample",
			Valid: func() *apps.WorkloadSpread {
				three := intstr.FromInt32(3)
				return hub(&v1alpha1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "sample"},
					Spec: v1alpha1.WorkloadSpreadSpec{
						TargetReference: &v1alpha1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"},
						Subsets: []v1alpha1.WorkloadSpreadSubset{
							{Name: "subset-a", MaxReplicas: &three, RequiredNodeSelectorTerm: &corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
								{Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}},
							{Name: "subset-b"},
						},
					}}, &apps.WorkloadSpread{})
			},
			BreakCreate: func(w *apps.WorkloadSpread) { w.Spec.TargetReference.Kind = "DaemonSet" },
			BreakUpdate: func(w *apps.WorkloadSpread) { w.Spec.Subsets[1].Name = "subset-a" },
			ChangeSpec: func(w *apps.WorkloadSpread) {
				four := intstr.FromInt32(4)
				w.Spec.Subsets[0].MaxReplicas = &four
			},
			ChangeStatus: func(w *apps.WorkloadSpread) { w.Status.ObservedGeneration++ },
		}, none)
	},
}

// Every served kind passes the registry conformance suite; a kind added to kinds.All
// without a fixture here fails this test.
func TestConformance(t *testing.T) {
	for _, k := range kinds.All() {
		gr := k.GroupResource()
		run, ok := conformance[gr]
		if !ok {
			t.Errorf("%s is served but has no conformance fixture in this file", gr)
			continue
		}
		t.Run(gr.String(), run)
	}
	if len(conformance) != len(kinds.All()) {
		t.Errorf("%d fixtures for %d served kinds", len(conformance), len(kinds.All()))
	}
}
