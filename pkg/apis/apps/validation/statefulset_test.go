package validation

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// newStatefulSet returns a valid, defaulted Advanced StatefulSet: 3 replicas,
// OrderedReady, RollingUpdate with maxUnavailable 1 and podUpdatePolicy ReCreate.
func newStatefulSet(t *testing.T) *apps.StatefulSet {
	t.Helper()
	labels := map[string]string{"app": "nginx"}
	v := &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "1"},
		Spec: v1beta1.StatefulSetSpec{
			Replicas:    int32p(3),
			ServiceName: "nginx-headless",
			Selector:    &metav1.LabelSelector{MatchLabels: labels},
			Template:    podTemplate(labels),
		},
	}
	v1beta1.SetObjectDefaults_StatefulSet(v)
	out := &apps.StatefulSet{}
	toInternal(t, v, out)
	return out
}

// parallel switches a StatefulSet to Parallel pod management.
func parallel(ss *apps.StatefulSet) { ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement }

// inPlace sets the pod update policy and, with gate, the readiness gate it needs.
func inPlace(ss *apps.StatefulSet, policy apps.PodUpdateStrategyType, gate bool) {
	ss.Spec.UpdateStrategy.RollingUpdate.PodUpdatePolicy = policy
	if gate {
		ss.Spec.Template.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: pub.InPlaceUpdateReady}}
	}
}

func TestValidateStatefulSet(t *testing.T) {
	const ru = "spec.updateStrategy.rollingUpdate"
	cases := []struct {
		name   string
		mutate func(ss *apps.StatefulSet)
		want   []wantErr
	}{
		{name: "defaulted minimal StatefulSet", mutate: func(*apps.StatefulSet) {}},

		// metadata
		{name: "dotted name", mutate: func(ss *apps.StatefulSet) { ss.Name = "web.v1" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "longest name whose revision label fits", mutate: func(ss *apps.StatefulSet) { ss.Name = strings.Repeat("w", 52) }},
		{name: "name too long for the revision label",
			mutate: func(ss *apps.StatefulSet) { ss.Name = strings.Repeat("w", 60) },
			want:   []wantErr{invalid("metadata.name", "must be no more than 52 characters")}},
		{name: "no namespace", mutate: func(ss *apps.StatefulSet) { ss.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},

		// selector, template, claims
		{name: "selector does not match template labels",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.Template.Labels = map[string]string{"app": "other"} },
			want:   []wantErr{invalid("spec.template.metadata.labels", "selector does not match template labels")}},
		{name: "empty selector", mutate: func(ss *apps.StatefulSet) { ss.Spec.Selector = &metav1.LabelSelector{} },
			want: []wantErr{invalid("spec.selector")}},
		{name: "nil selector", mutate: func(ss *apps.StatefulSet) { ss.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "restartPolicy OnFailure",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
			want:   []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "activeDeadlineSeconds",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.Template.Spec.ActiveDeadlineSeconds = new(int64(30)) },
			want:   []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds")}},
		{name: "hostname and subdomain are the controller's",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.Template.Spec.Hostname = "Not_A_Label"
				ss.Spec.Template.Spec.Subdomain = "Not_A_Label"
			}},
		{name: "claim template mounted",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("www", "1Gi")}
				ss.Spec.Template.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}}
			}},
		{name: "claim template replaces a template volume of its name",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("www", "1Gi")}
				ss.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "www", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			}},
		{name: "claim template without size",
			mutate: func(ss *apps.StatefulSet) {
				c := claimTemplate("www", "1Gi")
				c.Spec.Resources.Requests = nil
				ss.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{c}
			},
			want: []wantErr{required("spec.volumeClaimTemplates[0].spec.resources[storage]")}},
		{name: "claim template without name",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("", "1Gi")}
			},
			want: []wantErr{required("spec.volumeClaimTemplates[0].metadata.name")}},

		// simple fields
		{name: "replicas -1", mutate: func(ss *apps.StatefulSet) { ss.Spec.Replicas = int32p(-1) },
			want: []wantErr{invalid("spec.replicas")}},
		{name: "revisionHistoryLimit -1", mutate: func(ss *apps.StatefulSet) { ss.Spec.RevisionHistoryLimit = int32p(-1) },
			want: []wantErr{invalid("spec.revisionHistoryLimit")}},
		{name: "serviceName not a DNS label", mutate: func(ss *apps.StatefulSet) { ss.Spec.ServiceName = "Bad_Name" },
			want: []wantErr{invalid("spec.serviceName")}},
		{name: "no serviceName", mutate: func(ss *apps.StatefulSet) { ss.Spec.ServiceName = "" }},
		{name: "Parallel", mutate: parallel},
		{name: "unknown podManagementPolicy", mutate: func(ss *apps.StatefulSet) { ss.Spec.PodManagementPolicy = "Random" },
			want: []wantErr{notSupported("spec.podManagementPolicy")}},
		{name: "ordinals start 5", mutate: func(ss *apps.StatefulSet) { ss.Spec.Ordinals = &apps.StatefulSetOrdinals{Start: 5} }},
		{name: "ordinals start -1", mutate: func(ss *apps.StatefulSet) { ss.Spec.Ordinals = &apps.StatefulSetOrdinals{Start: -1} },
			want: []wantErr{invalid("spec.ordinals.start")}},

		// reserveOrdinals
		{name: "reserveOrdinals ordinals and ranges",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromInt32(1), intstr.FromString("3-5"), intstr.FromString("7-7")}
			}},
		{name: "reserveOrdinals -1",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromInt32(0), intstr.FromInt32(-1)}
			},
			want: []wantErr{invalid("spec.reserveOrdinals[1]")}},
		{name: "reserveOrdinals backwards range",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromString("5-3")} },
			want:   []wantErr{invalid("spec.reserveOrdinals[0]", "start")}},
		{name: "reserveOrdinals not a range",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromString("a-b"), intstr.FromString("3"), intstr.FromString("-1-2")}
			},
			want: []wantErr{invalid("spec.reserveOrdinals[0]"), invalid("spec.reserveOrdinals[1]"), invalid("spec.reserveOrdinals[2]")}},

		// update strategy
		{name: "OnDelete", mutate: func(ss *apps.StatefulSet) {
			ss.Spec.UpdateStrategy = apps.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
		}},
		{name: "OnDelete with rollingUpdate",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType },
			want:   []wantErr{forbidden(ru)}},
		{name: "unknown update type", mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.Type = "Rolling" },
			want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{name: "partition 10 with replicas 3",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.Partition = int32p(10) }},
		{name: "partition -1", mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.Partition = int32p(-1) },
			want: []wantErr{invalid(ru + ".partition")}},
		{name: "minReadySeconds 300",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.MinReadySeconds = int32p(300) }},
		{name: "minReadySeconds 301",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.MinReadySeconds = int32p(301) },
			want:   []wantErr{invalid(ru+".minReadySeconds", "300")}},
		{name: "minReadySeconds -1",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.MinReadySeconds = int32p(-1) },
			want:   []wantErr{invalid(ru + ".minReadySeconds")}},
		{name: "maxUnavailable 3 with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = intOrStr(3)
			}},
		{name: "maxUnavailable 50% with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = strOrStr("50%")
			}},
		{name: "maxUnavailable 3 with OrderedReady",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = intOrStr(3) },
			want:   []wantErr{invalid(ru+".maxUnavailable", "Parallel")}},
		{name: "maxUnavailable 0 with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = intOrStr(0)
			},
			want: []wantErr{invalid(ru+".maxUnavailable", "cannot be 0")}},
		{name: "maxUnavailable 0% with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = strOrStr("0%")
			},
			want: []wantErr{invalid(ru+".maxUnavailable", "cannot be 0")}},
		{name: "maxUnavailable 120% with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = strOrStr("120%")
			},
			want: []wantErr{invalid(ru+".maxUnavailable", "must not be greater than 100%")}},
		{name: "maxUnavailable -1 with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = intOrStr(-1)
			},
			want: []wantErr{invalid(ru + ".maxUnavailable")}},
		{name: "maxUnavailable unset",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = nil },
			want:   []wantErr{required(ru + ".maxUnavailable")}},
		{name: "InPlaceIfPossible with the readiness gate",
			mutate: func(ss *apps.StatefulSet) { inPlace(ss, apps.InPlaceIfPossiblePodUpdateStrategyType, true) }},
		{name: "InPlaceIfPossible without the readiness gate",
			mutate: func(ss *apps.StatefulSet) { inPlace(ss, apps.InPlaceIfPossiblePodUpdateStrategyType, false) },
			want:   []wantErr{invalid("spec.template.spec.readinessGates", pub.InPlaceUpdateReady)}},
		{name: "InPlaceOnly without the readiness gate",
			mutate: func(ss *apps.StatefulSet) { inPlace(ss, apps.InPlaceOnlyPodUpdateStrategyType, false) },
			want:   []wantErr{invalid("spec.template.spec.readinessGates")}},
		{name: "unknown podUpdatePolicy",
			mutate: func(ss *apps.StatefulSet) { inPlace(ss, "InPlace", true) },
			want:   []wantErr{notSupported(ru + ".podUpdatePolicy")}},
		{name: "unorderedUpdate with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.UnorderedUpdate = &apps.UnorderedUpdateStrategy{
					PriorityStrategy: &pub.UpdatePriorityStrategy{OrderPriority: []pub.UpdatePriorityOrderTerm{{OrderedKey: "rank"}}},
				}
			}},
		{name: "unorderedUpdate with OrderedReady",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.UpdateStrategy.RollingUpdate.UnorderedUpdate = &apps.UnorderedUpdateStrategy{}
			},
			want: []wantErr{forbidden(ru+".unorderedUpdate", "Parallel")}},
		{name: "unorderedUpdate with a bad priority",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.UpdateStrategy.RollingUpdate.UnorderedUpdate = &apps.UnorderedUpdateStrategy{
					PriorityStrategy: &pub.UpdatePriorityStrategy{OrderPriority: []pub.UpdatePriorityOrderTerm{{}}},
				}
			},
			want: []wantErr{required(ru + ".unorderedUpdate.priorityStrategy.orderPriority[0].orderedKey")}},
		{name: "in-place grace period -1",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.UpdateStrategy.RollingUpdate.InPlaceUpdateStrategy = &pub.InPlaceUpdateStrategy{GracePeriodSeconds: -1}
			},
			want: []wantErr{invalid(ru + ".inPlaceUpdateStrategy.gracePeriodSeconds")}},

		// scale strategy
		{name: "scale maxUnavailable 2 with Parallel",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{MaxUnavailable: intOrStr(2)}
			}},
		{name: "scale maxUnavailable 1 with OrderedReady",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{MaxUnavailable: intOrStr(1)}
			}},
		{name: "scale maxUnavailable 2 with OrderedReady",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{MaxUnavailable: intOrStr(2)}
			},
			want: []wantErr{invalid("spec.scaleStrategy.maxUnavailable", "Parallel")}},
		{name: "scale maxUnavailable x",
			mutate: func(ss *apps.StatefulSet) {
				parallel(ss)
				ss.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{MaxUnavailable: strOrStr("x")}
			},
			want: []wantErr{invalid("spec.scaleStrategy.maxUnavailable")}},

		// claims policies
		{name: "retention Delete/Delete",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
					WhenDeleted: apps.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.DeletePersistentVolumeClaimRetentionPolicyType,
				}
			}},
		{name: "retention unknown",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = "Keep"
				ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = ""
			},
			want: []wantErr{notSupported("spec.persistentVolumeClaimRetentionPolicy.whenDeleted"),
				notSupported("spec.persistentVolumeClaimRetentionPolicy.whenScaled")}},
		{name: "volumeClaimUpdateStrategy OnPodRollingUpdate",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType
			}},
		{name: "volumeClaimUpdateStrategy unknown",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.VolumeClaimUpdateStrategy.Type = "OnRollingUpdate" },
			want:   []wantErr{notSupported("spec.volumeClaimUpdateStrategy.type")}},

		// lifecycle
		{name: "lifecycle hook with a bad label value",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.Lifecycle = &pub.Lifecycle{PreNormal: &pub.LifecycleHook{LabelsHandler: map[string]string{"ok": "bad value"}}}
			},
			want: []wantErr{invalid("spec.lifecycle.preNormal.labelsHandler")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ss := newStatefulSet(t)
			tc.mutate(ss)
			expectErrors(t, ValidateStatefulSet(ss), tc.want...)
		})
	}
}

func TestValidateStatefulSetUpdate(t *testing.T) {
	withClaims := func(ss *apps.StatefulSet) {
		ss.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{claimTemplate("www", "1Gi")}
	}
	cases := []struct {
		name   string
		old    func(ss *apps.StatefulSet)
		mutate func(ss *apps.StatefulSet)
		want   []wantErr
	}{
		{name: "no change", mutate: func(*apps.StatefulSet) {}},
		{name: "every mutable field",
			old: withClaims,
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.Replicas = int32p(5)
				ss.Spec.Template.Spec.Containers[0].Image = "nginx:latest"
				ss.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A", Value: "b"}}
				ss.Spec.UpdateStrategy.RollingUpdate.Partition = int32p(2)
				ss.Spec.UpdateStrategy.RollingUpdate.MinReadySeconds = int32p(10)
				ss.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromInt32(1)}
				ss.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{MarkPodNotReady: true}}
				ss.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{MaxUnavailable: intOrStr(1)}
				ss.Spec.RevisionHistoryLimit = int32p(2)
				ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = apps.DeletePersistentVolumeClaimRetentionPolicyType
				ss.Spec.Ordinals = &apps.StatefulSetOrdinals{Start: 1}
				ss.Spec.VolumeClaimTemplates = append(ss.Spec.VolumeClaimTemplates, claimTemplate("logs", "1Gi"))
				ss.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPVCDeleteVolumeClaimUpdateStrategyType
			}},
		{name: "selector change",
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.Selector.MatchLabels["tier"] = "web"
				ss.Spec.Template.Labels["tier"] = "web"
			},
			want: []wantErr{forbidden("spec.selector", "'replicas'")}},
		{name: "serviceName change", mutate: func(ss *apps.StatefulSet) { ss.Spec.ServiceName = "other" },
			want: []wantErr{forbidden("spec.serviceName")}},
		{name: "podManagementPolicy change", mutate: parallel,
			want: []wantErr{forbidden("spec.podManagementPolicy")}},
		{name: "stored invalid serviceName is tolerated",
			old:    func(ss *apps.StatefulSet) { ss.Spec.ServiceName = "Bad_Name" },
			mutate: func(ss *apps.StatefulSet) { ss.Spec.Replicas = int32p(1) }},
		{name: "update still validates the spec",
			mutate: func(ss *apps.StatefulSet) { ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = intOrStr(2) },
			want:   []wantErr{invalid("spec.updateStrategy.rollingUpdate.maxUnavailable")}},
		{name: "InPlaceOnly image change",
			old:    func(ss *apps.StatefulSet) { inPlace(ss, apps.InPlaceOnlyPodUpdateStrategyType, true) },
			mutate: func(ss *apps.StatefulSet) { ss.Spec.Template.Spec.Containers[0].Image = "nginx:latest" }},
		{name: "InPlaceOnly env change",
			old: func(ss *apps.StatefulSet) { inPlace(ss, apps.InPlaceOnlyPodUpdateStrategyType, true) },
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A", Value: "b"}}
			},
			want: []wantErr{forbidden("spec.template", "only image changes are allowed with InPlaceOnly")}},
		{name: "OnPodRollingUpdate claim resize",
			old: func(ss *apps.StatefulSet) {
				withClaims(ss)
				ss.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType
			},
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests[corev1.ResourceStorage] = resource.MustParse("2Gi")
			}},
		{name: "OnPodRollingUpdate claim added",
			old: func(ss *apps.StatefulSet) {
				withClaims(ss)
				ss.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType
			},
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimTemplates = append(ss.Spec.VolumeClaimTemplates, claimTemplate("logs", "1Gi"))
			},
			want: []wantErr{forbidden("spec.volumeClaimTemplates")}},
		{name: "OnPodRollingUpdate claim renamed",
			old: func(ss *apps.StatefulSet) {
				withClaims(ss)
				ss.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType
			},
			mutate: func(ss *apps.StatefulSet) { ss.Spec.VolumeClaimTemplates[0].Name = "data" },
			want:   []wantErr{forbidden("spec.volumeClaimTemplates[0].metadata.name")}},
		{name: "OnPodRollingUpdate access mode change",
			old: func(ss *apps.StatefulSet) {
				withClaims(ss)
				ss.Spec.VolumeClaimUpdateStrategy.Type = apps.OnPodRollingUpdateVolumeClaimUpdateStrategyType
			},
			mutate: func(ss *apps.StatefulSet) {
				ss.Spec.VolumeClaimTemplates[0].Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany}
			},
			want: []wantErr{forbidden("spec.volumeClaimTemplates[0]")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newStatefulSet(t)
			if tc.old != nil {
				tc.old(old)
			}
			ss := old.DeepCopy()
			ss.ResourceVersion = "2"
			tc.mutate(ss)
			expectErrors(t, ValidateStatefulSetUpdate(ss, old), tc.want...)
		})
	}
}

func TestValidateStatefulSetStatusUpdate(t *testing.T) {
	valid := apps.StatefulSetStatus{
		ObservedGeneration: 3, Replicas: 5, ReadyReplicas: 4, AvailableReplicas: 3, CurrentReplicas: 2,
		UpdatedReplicas: 3, UpdatedReadyReplicas: 2, UpdatedAvailableReplicas: 1, CollisionCount: int32p(2),
		VolumeClaims: []apps.VolumeClaimStatus{{VolumeClaimName: "www", CompatibleReplicas: 5, CompatibleReadyReplicas: 4}},
	}
	cases := []struct {
		name   string
		mutate func(s *apps.StatefulSetStatus)
		want   []wantErr
	}{
		{name: "consistent status", mutate: func(*apps.StatefulSetStatus) {}},
		{name: "observedGeneration -1", mutate: func(s *apps.StatefulSetStatus) { s.ObservedGeneration = -1 },
			want: []wantErr{invalid("status.observedGeneration")}},
		{name: "readyReplicas above replicas", mutate: func(s *apps.StatefulSetStatus) { s.ReadyReplicas = 6 },
			want: []wantErr{invalid("status.readyReplicas", "status.replicas")}},
		{name: "currentReplicas above replicas", mutate: func(s *apps.StatefulSetStatus) { s.CurrentReplicas = 6 },
			want: []wantErr{invalid("status.currentReplicas")}},
		{name: "updatedReplicas -1", mutate: func(s *apps.StatefulSetStatus) {
			s.UpdatedReplicas = -1
			s.UpdatedReadyReplicas = -1
			s.UpdatedAvailableReplicas = -1
		},
			want: []wantErr{invalid("status.updatedReplicas"), invalid("status.updatedReadyReplicas"), invalid("status.updatedAvailableReplicas")}},
		{name: "volume claim count -1", mutate: func(s *apps.StatefulSetStatus) { s.VolumeClaims[0].CompatibleReadyReplicas = -1 },
			want: []wantErr{invalid("status.volumeClaims[0].compatibleReadyReplicas")}},
		{name: "collisionCount down", mutate: func(s *apps.StatefulSetStatus) { s.CollisionCount = int32p(1) },
			want: []wantErr{invalid("status.collisionCount", "decremented")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newStatefulSet(t)
			old.Status = *valid.DeepCopy()
			ss := old.DeepCopy()
			ss.ResourceVersion = "2"
			tc.mutate(&ss.Status)
			expectErrors(t, ValidateStatefulSetStatusUpdate(ss, old), tc.want...)
		})
	}
}

func TestValidateStatefulSetRollback(t *testing.T) {
	expectErrors(t, ValidateStatefulSetRollback(&apps.StatefulSetRollback{Name: "web", ToRevision: 0}))
	expectErrors(t, ValidateStatefulSetRollback(&apps.StatefulSetRollback{ToRevision: -2}), invalid("toRevision"))
	expectErrors(t, ValidateStatefulSetRollback(&apps.StatefulSetRollback{Name: "web.v1"}), invalid("name"))
}

func TestStatefulSetNilsDoNotPanic(t *testing.T) {
	ss := newStatefulSet(t)
	ss.Spec.Replicas = nil
	ss.Spec.Selector = nil
	ss.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{}
	ss.Spec.PersistentVolumeClaimRetentionPolicy = nil
	ss.Spec.ScaleStrategy = &apps.StatefulSetScaleStrategy{}
	ss.Spec.Lifecycle = &pub.Lifecycle{}
	expectErrors(t, ValidateStatefulSet(ss),
		required("spec.replicas"), required("spec.selector"),
		required("spec.updateStrategy.rollingUpdate.maxUnavailable"),
		required("spec.updateStrategy.rollingUpdate.podUpdatePolicy"))
	old := ss.DeepCopy()
	ss.ResourceVersion = "2"
	if errs := ValidateStatefulSetUpdate(ss, old); len(errs) == 0 {
		t.Errorf("expected errors for an update of an invalid StatefulSet")
	}
	if errs := ValidateStatefulSet(nil); len(errs) != 1 {
		t.Errorf("nil StatefulSet: want one error, got %v", errs)
	}
	if errs := ValidateStatefulSetStatusUpdate(nil, old); len(errs) != 1 {
		t.Errorf("nil StatefulSet status update: want one error, got %v", errs)
	}
}
