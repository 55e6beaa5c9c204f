package validation

import (
	"math"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// newCloneSet returns a valid, defaulted CloneSet with 3 replicas.
func newCloneSet(t *testing.T) *apps.CloneSet {
	t.Helper()
	labels := map[string]string{"app": "cs"}
	v := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "cs-demo", Namespace: "default", ResourceVersion: "1"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: int32p(3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: podTemplate(labels),
		},
	}
	v1alpha1.SetObjectDefaults_CloneSet(v)
	out := &apps.CloneSet{}
	toInternal(t, v, out)
	return out
}

type cloneSetCase struct {
	name   string
	mutate func(cs *apps.CloneSet)
	want   []wantErr
}

func TestValidateCloneSet(t *testing.T) {
	cases := []cloneSetCase{
		{name: "defaulted minimal CloneSet", mutate: func(*apps.CloneSet) {}},

		// metadata
		{name: "name with uppercase", mutate: func(cs *apps.CloneSet) { cs.Name = "Bad_Name" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "dotted name is a valid subdomain", mutate: func(cs *apps.CloneSet) { cs.Name = "cs.v1" }},
		{name: "longest name whose revision label fits", mutate: func(cs *apps.CloneSet) { cs.Name = strings.Repeat("a", 52) }},
		{name: "name too long for the revision label",
			mutate: func(cs *apps.CloneSet) { cs.Name = strings.Repeat("a", 53) },
			want:   []wantErr{invalid("metadata.name", "must be no more than 52 characters")}},
		{name: "no namespace", mutate: func(cs *apps.CloneSet) { cs.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},

		// selector and template labels
		{name: "selector does not match template labels",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Template.Labels = map[string]string{"app": "other"} },
			want:   []wantErr{invalid("spec.template.metadata.labels", "selector does not match template labels")}},
		{name: "selector matched by a superset of labels",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Template.Labels["tier"] = "web" }},
		{name: "empty selector",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Selector = &metav1.LabelSelector{} },
			want:   []wantErr{invalid("spec.selector", "empty selector")}},
		{name: "nil selector",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Selector = nil },
			want:   []wantErr{required("spec.selector")}},
		{name: "malformed selector",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}
			},
			want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},

		// pod template
		{name: "restartPolicy Never",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "activeDeadlineSeconds",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(30)) },
			want:   []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds")}},
		{name: "container without image",
			mutate: func(cs *apps.CloneSet) { cs.Spec.Template.Spec.Containers[0].Image = "" },
			want:   []wantErr{required("spec.template.spec.containers[0].image")}},
		{name: "mount of a claim template",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("data", "1Gi")}
				cs.Spec.Template.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
			}},
		{name: "mount of an unknown volume",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Template.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
			},
			want: []wantErr{notFound("spec.template.spec.containers[0].volumeMounts[0].name")}},
		{name: "claim template without access modes",
			mutate: func(cs *apps.CloneSet) {
				c := claimTemplate("data", "1Gi")
				c.Spec.AccessModes = nil
				cs.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{c}
			},
			want: []wantErr{required("spec.volumeClaimTemplates[0].spec.accessModes")}},
		{name: "claim templates with one name",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("data", "1Gi"), claimTemplate("data", "2Gi")}
			},
			want: []wantErr{duplicate("spec.volumeClaimTemplates[1].metadata.name")}},

		// counts
		{name: "replicas 0", mutate: func(cs *apps.CloneSet) { cs.Spec.Replicas = int32p(0) }},
		{name: "replicas -1", mutate: func(cs *apps.CloneSet) { cs.Spec.Replicas = int32p(-1) },
			want: []wantErr{invalid("spec.replicas")}},
		{name: "replicas unset", mutate: func(cs *apps.CloneSet) { cs.Spec.Replicas = nil },
			want: []wantErr{required("spec.replicas")}},
		{name: "minReadySeconds -1", mutate: func(cs *apps.CloneSet) { cs.Spec.MinReadySeconds = -1 },
			want: []wantErr{invalid("spec.minReadySeconds")}},
		{name: "revisionHistoryLimit 0", mutate: func(cs *apps.CloneSet) { cs.Spec.RevisionHistoryLimit = int32p(0) }},
		{name: "revisionHistoryLimit -1", mutate: func(cs *apps.CloneSet) { cs.Spec.RevisionHistoryLimit = int32p(-1) },
			want: []wantErr{invalid("spec.revisionHistoryLimit")}},
		{name: "progressDeadlineSeconds above minReadySeconds",
			mutate: func(cs *apps.CloneSet) { cs.Spec.MinReadySeconds = 60; cs.Spec.ProgressDeadlineSeconds = int32p(600) }},
		{name: "progressDeadlineSeconds equal to minReadySeconds",
			mutate: func(cs *apps.CloneSet) { cs.Spec.MinReadySeconds = 60; cs.Spec.ProgressDeadlineSeconds = int32p(60) },
			want:   []wantErr{invalid("spec.progressDeadlineSeconds", "greater than minReadySeconds")}},
		{name: "progressDeadlineSeconds MaxInt32 (no deadline) with the largest minReadySeconds",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.MinReadySeconds = math.MaxInt32
				cs.Spec.ProgressDeadlineSeconds = int32p(math.MaxInt32)
			}},
		{name: "progressDeadlineSeconds MaxInt32 with minReadySeconds 600",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.MinReadySeconds = 600
				cs.Spec.ProgressDeadlineSeconds = int32p(math.MaxInt32)
			}},
		{name: "progressDeadlineSeconds -1",
			mutate: func(cs *apps.CloneSet) { cs.Spec.ProgressDeadlineSeconds = int32p(-1) },
			want:   []wantErr{invalid("spec.progressDeadlineSeconds")}},

		// update strategy
		{name: "type OnDelete", mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.OnDeleteCloneSetUpdateStrategyType }},
		{name: "unknown type", mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = "RollingUpdate" },
			want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{name: "empty type", mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = "" },
			want: []wantErr{required("spec.updateStrategy.type")}},
		{name: "partition 10 with replicas 3", mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Partition = intOrStr(10) }},
		{name: "partition 100%", mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Partition = strOrStr("100%") }},
		{name: "partition -1", mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Partition = intOrStr(-1) },
			want: []wantErr{invalid("spec.updateStrategy.partition")}},
		{name: `partition "-1"`, mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Partition = strOrStr("-1") },
			want: []wantErr{invalid("spec.updateStrategy.partition", "percentage")}},
		{name: `partition "120%"`, mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Partition = strOrStr("120%") },
			want: []wantErr{invalid("spec.updateStrategy.partition", "must not be greater than 100%")}},
		{name: `maxUnavailable "120%"`, mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.MaxUnavailable = strOrStr("120%") },
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable", "must not be greater than 100%")}},
		{name: `maxSurge "200%"`, mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.MaxSurge = strOrStr("200%") }},
		{name: `maxSurge "x"`, mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.MaxSurge = strOrStr("x") },
			want: []wantErr{invalid("spec.updateStrategy.maxSurge")}},
		{name: "maxUnavailable 0 and maxSurge 0",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.MaxUnavailable = intOrStr(0)
				cs.Spec.UpdateStrategy.MaxSurge = intOrStr(0)
			},
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable", "may not be 0 when maxSurge is 0")}},
		{name: `maxUnavailable "0%" and maxSurge "0%"`,
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.MaxUnavailable = strOrStr("0%")
				cs.Spec.UpdateStrategy.MaxSurge = strOrStr("0%")
			},
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable")}},
		{name: "maxUnavailable 0 and maxSurge 1",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.MaxUnavailable = intOrStr(0)
				cs.Spec.UpdateStrategy.MaxSurge = intOrStr(1)
			}},
		{name: "InPlaceOnly with maxSurge 0",
			mutate: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType }},
		{name: "InPlaceOnly with maxSurge 1",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType
				cs.Spec.UpdateStrategy.MaxSurge = intOrStr(1)
			},
			want: []wantErr{forbidden("spec.updateStrategy.maxSurge", "InPlaceOnly")}},
		{name: "InPlaceIfPossible with maxSurge 1",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.Type = apps.InPlaceIfPossibleCloneSetUpdateStrategyType
				cs.Spec.UpdateStrategy.MaxSurge = intOrStr(1)
			}},
		{name: "scatter terms",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Key: "zone", Value: "a"}, {Key: "zone", Value: "b"}}
			}},
		{name: "scatter term without key",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Value: "a"}}
			},
			want: []wantErr{required("spec.updateStrategy.scatterStrategy[0].key")}},
		{name: "scatter term without value",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Key: "zone"}}
			},
			want: []wantErr{required("spec.updateStrategy.scatterStrategy[0].value")}},
		{name: "scatter term twice",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Key: "zone", Value: "a"}, {Key: "zone", Value: "a"}}
			},
			want: []wantErr{duplicate("spec.updateStrategy.scatterStrategy[1]")}},
		{name: "weight priority",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{WeightPriority: []pub.UpdatePriorityWeightTerm{
					{Weight: 100, MatchSelector: metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}}},
				}}
			}},
		{name: "weight 0",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{WeightPriority: []pub.UpdatePriorityWeightTerm{
					{Weight: 0, MatchSelector: metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}}},
				}}
			},
			want: []wantErr{invalid("spec.updateStrategy.priorityStrategy.weightPriority[0].weight")}},
		{name: "weight 101",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{WeightPriority: []pub.UpdatePriorityWeightTerm{
					{Weight: 101, MatchSelector: metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}}},
				}}
			},
			want: []wantErr{invalid("spec.updateStrategy.priorityStrategy.weightPriority[0].weight")}},
		{name: "weight term with empty selector",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{WeightPriority: []pub.UpdatePriorityWeightTerm{{Weight: 5}}}
			},
			want: []wantErr{required("spec.updateStrategy.priorityStrategy.weightPriority[0].matchSelector")}},
		{name: "order priority",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{OrderPriority: []pub.UpdatePriorityOrderTerm{{OrderedKey: "rank"}}}
			}},
		{name: "empty orderedKey",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{OrderPriority: []pub.UpdatePriorityOrderTerm{{}}}
			},
			want: []wantErr{required("spec.updateStrategy.priorityStrategy.orderPriority[0].orderedKey")}},
		{name: "weight and order priority",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{
					OrderPriority: []pub.UpdatePriorityOrderTerm{{OrderedKey: "rank"}},
					WeightPriority: []pub.UpdatePriorityWeightTerm{
						{Weight: 5, MatchSelector: metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}}},
					},
				}
			},
			want: []wantErr{forbidden("spec.updateStrategy.priorityStrategy")}},
		{name: "in-place grace period 10",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.InPlaceUpdateStrategy = &pub.InPlaceUpdateStrategy{GracePeriodSeconds: 10}
			}},
		{name: "in-place grace period -1",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.InPlaceUpdateStrategy = &pub.InPlaceUpdateStrategy{GracePeriodSeconds: -1}
			},
			want: []wantErr{invalid("spec.updateStrategy.inPlaceUpdateStrategy.gracePeriodSeconds")}},

		// lifecycle
		{name: "lifecycle hooks",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Lifecycle = &pub.Lifecycle{
					PreDelete:     &pub.LifecycleHook{LabelsHandler: map[string]string{"example.io/block-deleting": "true"}},
					InPlaceUpdate: &pub.LifecycleHook{FinalizersHandler: []string{"example.io/unready-blocker"}},
				}
			}},
		{name: "lifecycle hook with a bad label key",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{"bad key": "true"}}}
			},
			want: []wantErr{invalid("spec.lifecycle.preDelete.labelsHandler")}},
		{name: "lifecycle hook with a bad finalizer",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Lifecycle = &pub.Lifecycle{InPlaceUpdate: &pub.LifecycleHook{FinalizersHandler: []string{"not a finalizer"}}}
			},
			want: []wantErr{invalid("spec.lifecycle.inPlaceUpdate.finalizersHandler[0]")}},

		// scale strategy
		{name: "podsToDelete", mutate: func(cs *apps.CloneSet) { cs.Spec.ScaleStrategy.PodsToDelete = []string{"cs-demo-a", "cs-demo-b"} }},
		{name: "podsToDelete with a name twice",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.ScaleStrategy.PodsToDelete = []string{"cs-demo-a", "cs-demo-b", "cs-demo-a"}
			},
			want: []wantErr{duplicate("spec.scaleStrategy.podsToDelete[2]")}},
		{name: "podsToDelete with an empty name",
			mutate: func(cs *apps.CloneSet) { cs.Spec.ScaleStrategy.PodsToDelete = []string{""} },
			want:   []wantErr{required("spec.scaleStrategy.podsToDelete[0]")}},
		{name: "scale maxUnavailable 50%", mutate: func(cs *apps.CloneSet) { cs.Spec.ScaleStrategy.MaxUnavailable = strOrStr("50%") }},
		{name: "scale maxUnavailable -1", mutate: func(cs *apps.CloneSet) { cs.Spec.ScaleStrategy.MaxUnavailable = intOrStr(-1) },
			want: []wantErr{invalid("spec.scaleStrategy.maxUnavailable")}},
		{name: `scale maxUnavailable "1"`, mutate: func(cs *apps.CloneSet) { cs.Spec.ScaleStrategy.MaxUnavailable = strOrStr("1") },
			want: []wantErr{invalid("spec.scaleStrategy.maxUnavailable")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs := newCloneSet(t)
			tc.mutate(cs)
			expectErrors(t, ValidateCloneSet(cs), tc.want...)
		})
	}
}

func TestValidateCloneSetUpdate(t *testing.T) {
	cases := []struct {
		name string
		// old is applied to the stored object, mutate to a copy of it that is the update.
		old    func(cs *apps.CloneSet)
		mutate func(cs *apps.CloneSet)
		want   []wantErr
	}{
		{name: "no change", mutate: func(*apps.CloneSet) {}},
		{name: "scale", mutate: func(cs *apps.CloneSet) { cs.Spec.Replicas = int32p(10) }},
		{name: "template, strategies, lifecycle, claims and history change",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A", Value: "b"}}
				cs.Spec.UpdateStrategy.Type = apps.InPlaceIfPossibleCloneSetUpdateStrategyType
				cs.Spec.UpdateStrategy.Partition = intOrStr(2)
				cs.Spec.ScaleStrategy.PodsToDelete = []string{"cs-demo-x"}
				cs.Spec.MinReadySeconds = 5
				cs.Spec.RevisionHistoryLimit = int32p(3)
				cs.Spec.ProgressDeadlineSeconds = int32p(100)
				cs.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{MarkPodNotReady: true}}
				cs.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("data", "1Gi")}
			}},
		{name: "selector change",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Selector.MatchLabels["tier"] = "web"
				cs.Spec.Template.Labels["tier"] = "web"
			},
			want: []wantErr{forbidden("spec.selector", "'replicas'")}},
		{name: "name change", mutate: func(cs *apps.CloneSet) { cs.Name = "other" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "update still validates the spec", mutate: func(cs *apps.CloneSet) { cs.Spec.Replicas = int32p(-1) },
			want: []wantErr{invalid("spec.replicas")}},
		{name: "InPlaceOnly image change",
			old:    func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType },
			mutate: func(cs *apps.CloneSet) { cs.Spec.Template.Spec.Containers[0].Image = "nginx:latest" }},
		{name: "InPlaceOnly label and annotation change",
			old: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType },
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Template.Labels["version"] = "v2"
				cs.Spec.Template.Annotations = map[string]string{"app-config": "v2"}
			}},
		{name: "InPlaceOnly env change",
			old: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType },
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A", Value: "b"}}
			},
			want: []wantErr{forbidden("spec.template", "only image changes are allowed with InPlaceOnly")}},
		{name: "InPlaceOnly image and pull policy change",
			old: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType },
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.Template.Spec.Containers[0].Image = "nginx:latest"
				cs.Spec.Template.Spec.Containers[0].ImagePullPolicy = corev1.PullNever
			},
			want: []wantErr{forbidden("spec.template", "only image changes are allowed with InPlaceOnly")}},
		{name: "InPlaceOnly added container",
			old: func(cs *apps.CloneSet) { cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType },
			mutate: func(cs *apps.CloneSet) {
				c := cs.Spec.Template.Spec.Containers[0].DeepCopy()
				c.Name = "sidecar"
				c.Ports = nil
				cs.Spec.Template.Spec.Containers = append(cs.Spec.Template.Spec.Containers, *c)
			},
			want: []wantErr{forbidden("spec.template")}},
		{name: "switch to InPlaceOnly together with a resource change",
			mutate: func(cs *apps.CloneSet) {
				cs.Spec.UpdateStrategy.Type = apps.InPlaceOnlyCloneSetUpdateStrategyType
				cs.Spec.Template.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
			},
			want: []wantErr{forbidden("spec.template")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newCloneSet(t)
			if tc.old != nil {
				tc.old(old)
			}
			cs := old.DeepCopy()
			cs.ResourceVersion = "2"
			tc.mutate(cs)
			expectErrors(t, ValidateCloneSetUpdate(cs, old), tc.want...)
		})
	}
}

func TestValidateCloneSetStatusUpdate(t *testing.T) {
	valid := apps.CloneSetStatus{
		ObservedGeneration: 2, Replicas: 4, ReadyReplicas: 3, AvailableReplicas: 2,
		UpdatedReplicas: 2, UpdatedReadyReplicas: 2, UpdatedAvailableReplicas: 1, ExpectedUpdatedReplicas: 4,
		CollisionCount: int32p(1),
	}
	cases := []struct {
		name   string
		mutate func(s *apps.CloneSetStatus)
		want   []wantErr
	}{
		{name: "consistent status", mutate: func(*apps.CloneSetStatus) {}},
		{name: "observedGeneration -1", mutate: func(s *apps.CloneSetStatus) { s.ObservedGeneration = -1 },
			want: []wantErr{invalid("status.observedGeneration")}},
		{name: "expectedUpdatedReplicas -1", mutate: func(s *apps.CloneSetStatus) { s.ExpectedUpdatedReplicas = -1 },
			want: []wantErr{invalid("status.expectedUpdatedReplicas")}},
		{name: "readyReplicas above replicas", mutate: func(s *apps.CloneSetStatus) { s.ReadyReplicas = 5 },
			want: []wantErr{invalid("status.readyReplicas", "status.replicas")}},
		{name: "availableReplicas above readyReplicas", mutate: func(s *apps.CloneSetStatus) { s.AvailableReplicas = 4 },
			want: []wantErr{invalid("status.availableReplicas", "status.readyReplicas")}},
		{name: "updatedReadyReplicas above updatedReplicas", mutate: func(s *apps.CloneSetStatus) { s.UpdatedReadyReplicas = 3 },
			want: []wantErr{invalid("status.updatedReadyReplicas")}},
		{name: "collisionCount up", mutate: func(s *apps.CloneSetStatus) { s.CollisionCount = int32p(2) }},
		{name: "collisionCount down", mutate: func(s *apps.CloneSetStatus) { s.CollisionCount = int32p(0) },
			want: []wantErr{invalid("status.collisionCount", "decremented")}},
		{name: "collisionCount dropped", mutate: func(s *apps.CloneSetStatus) { s.CollisionCount = nil },
			want: []wantErr{invalid("status.collisionCount", "decremented")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newCloneSet(t)
			old.Status = valid
			old.Status.CollisionCount = int32p(1)
			cs := old.DeepCopy()
			cs.ResourceVersion = "2"
			tc.mutate(&cs.Status)
			expectErrors(t, ValidateCloneSetStatusUpdate(cs, old), tc.want...)
		})
	}
}

func TestValidateCloneSetRollback(t *testing.T) {
	expectErrors(t, ValidateCloneSetRollback(&apps.CloneSetRollback{Name: "cs-demo", ToRevision: 3}))
	expectErrors(t, ValidateCloneSetRollback(&apps.CloneSetRollback{}))
	expectErrors(t, ValidateCloneSetRollback(&apps.CloneSetRollback{ToRevision: -1}), invalid("toRevision"))
	expectErrors(t, ValidateCloneSetRollback(&apps.CloneSetRollback{Name: "Bad_Name"}), invalid("name"))
}

func TestCloneSetNilsDoNotPanic(t *testing.T) {
	cs := newCloneSet(t)
	cs.Spec.Replicas = nil
	cs.Spec.Selector = nil
	cs.Spec.RevisionHistoryLimit = nil
	cs.Spec.UpdateStrategy = apps.CloneSetUpdateStrategy{Type: apps.InPlaceOnlyCloneSetUpdateStrategyType}
	expectErrors(t, ValidateCloneSet(cs), required("spec.replicas"), required("spec.selector"))
	old := cs.DeepCopy()
	cs.ResourceVersion = "2"
	if errs := ValidateCloneSetUpdate(cs, old); len(errs) == 0 {
		t.Errorf("expected errors for an update of an invalid CloneSet")
	}
	if errs := ValidateCloneSet(nil); len(errs) != 1 {
		t.Errorf("nil CloneSet: want one error, got %v", errs)
	}
	if errs := ValidateCloneSetUpdate(cs, nil); len(errs) != 1 {
		t.Errorf("nil old CloneSet: want one error, got %v", errs)
	}
}
