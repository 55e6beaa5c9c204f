package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// newSidecarSet is a defaulted SidecarSet with one sidecar mounting its one volume.
func newSidecarSet(t *testing.T) *apps.SidecarSet {
	t.Helper()
	v := &v1alpha1.SidecarSet{
		ObjectMeta: metav1.ObjectMeta{Name: "log", ResourceVersion: "1"},
		Spec: v1alpha1.SidecarSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Containers: []v1alpha1.SidecarContainer{{Container: corev1.Container{
				Name: "sidecar1", Image: "busybox:1.36", Command: []string{"sleep", "999d"},
				VolumeMounts: []corev1.VolumeMount{{Name: "log-volume", MountPath: "/var/log"}},
			}}},
			Volumes: []corev1.Volume{{Name: "log-volume", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}
	v1alpha1.SetObjectDefaults_SidecarSet(v)
	out := &apps.SidecarSet{}
	toInternal(t, v, out)
	return out
}

func sidecar(name, image string) apps.SidecarContainer {
	return apps.SidecarContainer{
		Container: corev1.Container{Name: name, Image: image, ImagePullPolicy: corev1.PullIfNotPresent,
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile},
		PodInjectPolicy:   apps.BeforeAppContainerType,
		UpgradeStrategy:   apps.SidecarContainerUpgradeStrategy{UpgradeType: apps.SidecarContainerColdUpgrade},
		ShareVolumePolicy: apps.ShareVolumePolicy{Type: apps.ShareVolumePolicyDisabled},
	}
}

func hotSidecar(name string) apps.SidecarContainer {
	c := sidecar(name, "envoy:v1")
	c.UpgradeStrategy = apps.SidecarContainerUpgradeStrategy{UpgradeType: apps.SidecarContainerHotUpgrade, HotUpgradeEmptyImage: "envoy:empty"}
	return c
}

func resourcesPolicy() *apps.ResourcesPolicy {
	return &apps.ResourcesPolicy{
		TargetContainersMode: apps.TargetContainersModeSum, TargetContainersNameRegex: "^main$",
		ResourcesExpr: apps.ResourcesExpr{
			Limits:   &apps.ResourceExprLimits{CPU: "max(cpu*50%, 50m)", Memory: "200Mi"},
			Requests: &apps.ResourceExprRequests{CPU: "cpu*10%", Memory: "min(memory, 100Mi)"},
		},
	}
}

func matchLabels(kv ...string) *metav1.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &metav1.LabelSelector{MatchLabels: m}
}

func TestValidateSidecarSet(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(ss *apps.SidecarSet)
		want   []wantErr
	}{
		{name: "defaulted minimal set", mutate: func(*apps.SidecarSet) {}},
		{name: "namespaced", mutate: func(ss *apps.SidecarSet) { ss.Namespace = "default" },
			want: []wantErr{forbidden("metadata.namespace")}},
		// Its revisions are labelled kruise.io/sidecarset-name=<name>: a DNS label fits.
		{name: "longest name", mutate: func(ss *apps.SidecarSet) { ss.Name = strings.Repeat("s", 63) }},
		{name: "name with a dot", mutate: func(ss *apps.SidecarSet) { ss.Name = "log.agent" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "no selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "empty selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.Selector = &metav1.LabelSelector{} },
			want: []wantErr{invalid("spec.selector", "empty selector")}},
		{name: "bad selector operator", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}
		}, want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{name: "namespace", mutate: func(ss *apps.SidecarSet) { ss.Spec.Namespace = "team-a" }},
		{name: "bad namespace", mutate: func(ss *apps.SidecarSet) { ss.Spec.Namespace = "Team_A" },
			want: []wantErr{invalid("spec.namespace")}},
		{name: "namespace selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.NamespaceSelector = matchLabels("env", "prod") }},
		{name: "namespace and namespace selector", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Namespace = "team-a"
			ss.Spec.NamespaceSelector = matchLabels("env", "prod")
		}, want: []wantErr{forbidden("spec.namespaceSelector", "together with namespace")}},
		{name: "empty namespace selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.NamespaceSelector = &metav1.LabelSelector{} },
			want: []wantErr{invalid("spec.namespaceSelector", "empty selector")}},
		{name: "no containers", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers = nil },
			want: []wantErr{required("spec.containers")}},
		{name: "init containers only", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers = nil
			init := sidecar("init", "busybox:1.36")
			init.PodInjectPolicy = apps.AfterAppContainerType
			ss.Spec.InitContainers = []apps.SidecarContainer{init}
		}},
		{name: "duplicate container names", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers = append(ss.Spec.Containers, sidecar("sidecar1", "nginx:1.25"))
		}, want: []wantErr{duplicate("spec.containers[1].name")}},
		{name: "init container named like a container", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.InitContainers = []apps.SidecarContainer{sidecar("sidecar1", "busybox:1.36")}
		}, want: []wantErr{duplicate("spec.initContainers[0].name")}},
		{name: "container without image", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].Image = "" },
			want: []wantErr{required("spec.containers[0].image")}},
		{name: "mount of an unknown volume", mutate: func(ss *apps.SidecarSet) { ss.Spec.Volumes = nil },
			want: []wantErr{notFound("spec.containers[0].volumeMounts[0].name")}},
		{name: "volume with two sources", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Volumes[0].HostPath = &corev1.HostPathVolumeSource{Path: "/var/log"}
		}, want: []wantErr{forbidden("spec.volumes[0].hostPath", "more than 1"),
			// kube leaves an invalid volume out of the ones mounts may name.
			notFound("spec.containers[0].volumeMounts[0].name")}},
		{name: "dotted volume name", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Volumes[0].Name = "log.volume"
			ss.Spec.Containers[0].VolumeMounts[0].Name = "log.volume"
		}},
		{name: "dotted volume name as another in pods", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Volumes = append(ss.Spec.Volumes, ss.Spec.Volumes[0])
			ss.Spec.Volumes[1].Name = "log.volume"
		}, want: []wantErr{duplicate("spec.volumes[1].name")}},
		{name: "bad volume name", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Volumes[0].Name = "Log"
			ss.Spec.Containers[0].VolumeMounts[0].Name = "Log"
		}, want: []wantErr{invalid("spec.volumes[0].name"), notFound("spec.containers[0].volumeMounts[0].name")}},
		{name: "duplicate volume", mutate: func(ss *apps.SidecarSet) { ss.Spec.Volumes = append(ss.Spec.Volumes, ss.Spec.Volumes[0]) },
			want: []wantErr{duplicate("spec.volumes[1].name")}},
		{name: "pull secret without name", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{}}
		}, want: []wantErr{required("spec.imagePullSecrets[0].name")}},
		{name: "unknown inject policy", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].PodInjectPolicy = "Middle" },
			want: []wantErr{notSupported("spec.containers[0].podInjectPolicy")}},
		{name: "unknown share volume policy", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].ShareVolumePolicy.Type = "Enabled" },
			want: []wantErr{notSupported("spec.containers[0].shareVolumePolicy.type")}},
		{name: "unknown share volume device policy", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].ShareVolumeDevicePolicy = &apps.ShareVolumePolicy{Type: "yes"}
		}, want: []wantErr{notSupported("spec.containers[0].shareVolumeDevicePolicy.type")}},
		{name: "unknown upgrade type", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].UpgradeStrategy.UpgradeType = "WarmUpgrade" },
			want: []wantErr{notSupported("spec.containers[0].upgradeStrategy.upgradeType")}},
		{name: "hot upgrade", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers = append(ss.Spec.Containers, hotSidecar("envoy")) }},
		{name: "hot upgrade without empty image", mutate: func(ss *apps.SidecarSet) {
			c := hotSidecar("envoy")
			c.UpgradeStrategy.HotUpgradeEmptyImage = ""
			ss.Spec.Containers = append(ss.Spec.Containers, c)
		}, want: []wantErr{required("spec.containers[1].upgradeStrategy.hotUpgradeEmptyImage")}},
		{name: "hot upgrade empty image is the image", mutate: func(ss *apps.SidecarSet) {
			c := hotSidecar("envoy")
			c.UpgradeStrategy.HotUpgradeEmptyImage = c.Image
			ss.Spec.Containers = append(ss.Spec.Containers, c)
		}, want: []wantErr{invalid("spec.containers[1].upgradeStrategy.hotUpgradeEmptyImage", "must differ")}},
		{name: "hot upgrade of an init container", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.InitContainers = []apps.SidecarContainer{hotSidecar("init")}
		}, want: []wantErr{notSupported("spec.initContainers[0].upgradeStrategy.upgradeType")}},
		{name: "hot upgrade names taken", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers = append(ss.Spec.Containers, hotSidecar("envoy"), sidecar("envoy-2", "busybox:1.36"))
		}, want: []wantErr{invalid("spec.containers[1].name", "envoy-2")}},
		{name: "hot upgrade names too long", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers = append(ss.Spec.Containers, hotSidecar("a23456789012345678901234567890123456789012345678901234567890123"[:62]))
		}, want: []wantErr{invalid("spec.containers[1].name", "-1"), invalid("spec.containers[1].name", "-2")}},
		{name: "transfer env", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].TransferEnv = []apps.TransferEnvVar{
				{SourceContainerName: "main", EnvName: "PROXY_IP"},
				{SourceContainerNameFrom: &apps.SourceContainerNameSource{FieldRef: &corev1.ObjectFieldSelector{
					APIVersion: "v1", FieldPath: "metadata.labels['app.io/main']"}}, EnvNames: []string{"A", "B"}},
			}
		}},
		{name: "transfer env without source or names", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].TransferEnv = []apps.TransferEnvVar{{}}
		}, want: []wantErr{required("spec.containers[0].transferEnv[0].sourceContainerName"), required("spec.containers[0].transferEnv[0].envName")}},
		{name: "transfer env with two sources", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].TransferEnv = []apps.TransferEnvVar{{SourceContainerName: "main", EnvName: "A",
				SourceContainerNameFrom: &apps.SourceContainerNameSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}}
		}, want: []wantErr{forbidden("spec.containers[0].transferEnv[0].sourceContainerNameFrom")}},
		{name: "transfer env from an unsupported field", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].TransferEnv = []apps.TransferEnvVar{{EnvName: "A",
				SourceContainerNameFrom: &apps.SourceContainerNameSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nodeName"}}}}
		}, want: []wantErr{notSupported("spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath")}},
		{name: "transfer env with a bad variable name", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].TransferEnv = []apps.TransferEnvVar{{SourceContainerName: "main", EnvNames: []string{"OK", "1=BAD"}}}
		}, want: []wantErr{invalid("spec.containers[0].transferEnv[0].envNames[1]")}},
		{name: "resources policy", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].ResourcesPolicy = resourcesPolicy() }},
		{name: "resources policy with resources", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].ResourcesPolicy = resourcesPolicy()
			ss.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
		}, want: []wantErr{forbidden("spec.containers[0].resourcesPolicy", "together with resources")}},
		{name: "resources policy with a bad regex, mode and expressions", mutate: func(ss *apps.SidecarSet) {
			p := resourcesPolicy()
			p.TargetContainersMode = "avg"
			p.TargetContainersNameRegex = "^main(["
			p.ResourcesExpr.Limits.CPU = "max(cpu*50%"
			p.ResourcesExpr.Requests.Memory = "cpu*2"
			ss.Spec.Containers[0].ResourcesPolicy = p
		}, want: []wantErr{
			notSupported("spec.containers[0].resourcesPolicy.targetContainersMode"),
			invalid("spec.containers[0].resourcesPolicy.targetContainersNameRegex"),
			invalid("spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu"),
			invalid("spec.containers[0].resourcesPolicy.resourcesExpr.requests.memory", "unknown name"),
		}},
		{name: "resources policy with an over-long or too deeply nested expression", mutate: func(ss *apps.SidecarSet) {
			p := resourcesPolicy()
			p.ResourcesExpr.Limits.CPU = strings.Repeat("(", 1<<20) + "cpu" + strings.Repeat(")", 1<<20)
			p.ResourcesExpr.Requests.CPU = strings.Repeat("(", 33) + "cpu" + strings.Repeat(")", 33)
			ss.Spec.Containers[0].ResourcesPolicy = p
		}, want: []wantErr{
			tooLong("spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu"),
			invalid("spec.containers[0].resourcesPolicy.resourcesExpr.requests.cpu", "nests more than 32 levels"),
		}},
		{name: "resources policy without regex or expressions", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].ResourcesPolicy = &apps.ResourcesPolicy{TargetContainersMode: apps.TargetContainersModeMax}
		}, want: []wantErr{
			required("spec.containers[0].resourcesPolicy.targetContainersNameRegex"),
			required("spec.containers[0].resourcesPolicy.resourcesExpr"),
		}},
		{name: "resources policy on a run-to-completion init container", mutate: func(ss *apps.SidecarSet) {
			c := sidecar("init", "busybox:1.36")
			c.ResourcesPolicy = resourcesPolicy()
			ss.Spec.InitContainers = []apps.SidecarContainer{c}
		}, want: []wantErr{forbidden("spec.initContainers[0].resourcesPolicy", "native sidecar")}},
		{name: "resources policy on a native sidecar init container", mutate: func(ss *apps.SidecarSet) {
			always := corev1.ContainerRestartPolicyAlways
			c := sidecar("init", "busybox:1.36")
			c.RestartPolicy = &always
			c.ResourcesPolicy = resourcesPolicy()
			ss.Spec.InitContainers = []apps.SidecarContainer{c}
		}},
		{name: "unknown update type", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Type = "OnDelete" },
			want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{name: "NotUpdate", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Type = apps.NotUpdateSidecarSetStrategyType }},
		{name: "maxUnavailable 0", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.MaxUnavailable = intOrStr(0) },
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable", "may not be 0")}},
		{name: "maxUnavailable 0%", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.MaxUnavailable = strOrStr("0%") },
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable", "may not be 0")}},
		{name: "maxUnavailable over 100%", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.MaxUnavailable = strOrStr("120%") },
			want: []wantErr{invalid("spec.updateStrategy.maxUnavailable", "100%")}},
		{name: "negative partition", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Partition = intOrStr(-1) },
			want: []wantErr{invalid("spec.updateStrategy.partition")}},
		{name: "canary selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true") }},
		{name: "empty canary selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.UpdateStrategy.Selector = &metav1.LabelSelector{} },
			want: []wantErr{invalid("spec.updateStrategy.selector", "empty selector")}},
		{name: "partition with canary selector", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
			ss.Spec.UpdateStrategy.Partition = intOrStr(2)
		}, want: []wantErr{forbidden("spec.updateStrategy.partition", "cannot be used together")}},
		{name: "percent partition with canary selector", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
			ss.Spec.UpdateStrategy.Partition = strOrStr("50%")
		}, want: []wantErr{forbidden("spec.updateStrategy.partition")}},
		{name: "partition 0% with canary selector", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
			ss.Spec.UpdateStrategy.Partition = strOrStr("0%")
		}},
		{name: "partition with canary selector while paused", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
			ss.Spec.UpdateStrategy.Partition = intOrStr(2)
			ss.Spec.UpdateStrategy.Paused = true
		}},
		{name: "partition with canary selector and NotUpdate", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.Type = apps.NotUpdateSidecarSetStrategyType
			ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
			ss.Spec.UpdateStrategy.Partition = intOrStr(2)
		}},
		{name: "weight and order priority", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.PriorityStrategy = &pub.UpdatePriorityStrategy{
				OrderPriority:  []pub.UpdatePriorityOrderTerm{{OrderedKey: "a"}},
				WeightPriority: []pub.UpdatePriorityWeightTerm{{Weight: 5, MatchSelector: *matchLabels("a", "b")}},
			}
		}, want: []wantErr{forbidden("spec.updateStrategy.priorityStrategy")}},
		{name: "scatter term without value", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.ScatterStrategy = []pub.UpdateScatterTerm{{Key: "zone"}}
		}, want: []wantErr{required("spec.updateStrategy.scatterStrategy[0].value")}},
		{name: "negative revision history", mutate: func(ss *apps.SidecarSet) { ss.Spec.RevisionHistoryLimit = int32p(-1) },
			want: []wantErr{invalid("spec.revisionHistoryLimit")}},
		{name: "inject revision by name", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.InjectionStrategy.Revision = &apps.SidecarSetInjectRevision{RevisionName: new("log-5d8f7c"), Policy: apps.AlwaysSidecarSetInjectRevisionPolicy}
		}},
		{name: "inject revision naming none", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.InjectionStrategy.Revision = &apps.SidecarSetInjectRevision{Policy: apps.AlwaysSidecarSetInjectRevisionPolicy}
		}, want: []wantErr{required("spec.injectionStrategy.revision")}},
		{name: "inject revision with unknown policy", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.InjectionStrategy.Revision = &apps.SidecarSetInjectRevision{CustomVersion: new("v2"), Policy: "Sometimes"}
		}, want: []wantErr{notSupported("spec.injectionStrategy.revision.policy")}},
		{name: "inject revision with a bad custom version", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.InjectionStrategy.Revision = &apps.SidecarSetInjectRevision{CustomVersion: new("v 2"), Policy: apps.PartialSidecarSetInjectRevisionPolicy}
		}, want: []wantErr{invalid("spec.injectionStrategy.revision.customVersion")}},
		{name: "patch pod metadata", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.PatchPodMetadata = []apps.SidecarSetPatchPodMetadata{
				{Annotations: map[string]string{"oom-score": `{"log": 1}`}, PatchPolicy: apps.SidecarSetMergePatchJSONPatchPolicy},
				{Annotations: map[string]string{"team": "infra"}, PatchPolicy: apps.SidecarSetRetainPatchPolicy},
			}
		}},
		{name: "patch pod metadata problems", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.PatchPodMetadata = []apps.SidecarSetPatchPodMetadata{
				{Annotations: map[string]string{"oom-score": `1`}, PatchPolicy: apps.SidecarSetMergePatchJSONPatchPolicy},
				{Annotations: map[string]string{"oom-score": "x", "bad key!": "y"}, PatchPolicy: "Replace"},
				{PatchPolicy: apps.SidecarSetOverwritePatchPolicy},
			}
		}, want: []wantErr{
			invalid("spec.patchPodMetadata[0].annotations[oom-score]", "JSON object"),
			invalid("spec.patchPodMetadata[1].annotations"),
			notSupported("spec.patchPodMetadata[1].patchPolicy"),
			duplicate("spec.patchPodMetadata[1].annotations[oom-score]"),
			required("spec.patchPodMetadata[2].annotations"),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ss := newSidecarSet(t)
			tc.mutate(ss)
			expectErrors(t, ValidateSidecarSet(ss), tc.want...)
		})
	}
}

func TestValidateSidecarSetUpdate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(ss *apps.SidecarSet)
		want   []wantErr
	}{
		{name: "new image", mutate: func(ss *apps.SidecarSet) { ss.Spec.Containers[0].Image = "busybox:1.37" }},
		{name: "new selector", mutate: func(ss *apps.SidecarSet) { ss.Spec.Selector = matchLabels("app", "web") }},
		{name: "new container", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers = append(ss.Spec.Containers, hotSidecar("envoy"))
		}},
		{name: "upgrade type changed", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].UpgradeStrategy = apps.SidecarContainerUpgradeStrategy{
				UpgradeType: apps.SidecarContainerHotUpgrade, HotUpgradeEmptyImage: "busybox:empty"}
		}, want: []wantErr{forbidden("spec.containers[0].upgradeStrategy.upgradeType", "immutable")}},
		{name: "container moved and renamed keeps no upgrade type", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.Containers[0].Name = "sidecar2"
			ss.Spec.Containers[0].UpgradeStrategy = apps.SidecarContainerUpgradeStrategy{
				UpgradeType: apps.SidecarContainerHotUpgrade, HotUpgradeEmptyImage: "busybox:empty"}
		}},
		{name: "unpausing with partition and selector", mutate: func(ss *apps.SidecarSet) {
			ss.Spec.UpdateStrategy.Paused = false
		}, want: []wantErr{forbidden("spec.updateStrategy.partition")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newSidecarSet(t)
			if tc.name == "unpausing with partition and selector" {
				old.Spec.UpdateStrategy.Paused = true
				old.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
				old.Spec.UpdateStrategy.Partition = intOrStr(3)
			}
			ss := old.DeepCopy()
			tc.mutate(ss)
			expectErrors(t, ValidateSidecarSetUpdate(ss, old), tc.want...)
		})
	}
}

func TestValidateSidecarSetStatusUpdate(t *testing.T) {
	cases := []struct {
		name   string
		status apps.SidecarSetStatus
		want   []wantErr
	}{
		{name: "consistent", status: apps.SidecarSetStatus{ObservedGeneration: 1, MatchedPods: 3, UpdatedPods: 2, ReadyPods: 3, UpdatedReadyPods: 2, CollisionCount: int32p(1)}},
		{name: "negative", status: apps.SidecarSetStatus{ObservedGeneration: -1},
			want: []wantErr{invalid("status.observedGeneration")}},
		{name: "more updated than matched", status: apps.SidecarSetStatus{MatchedPods: 1, UpdatedPods: 2, ReadyPods: 1},
			want: []wantErr{invalid("status.updatedPods", "matchedPods")}},
		{name: "more updated ready than ready", status: apps.SidecarSetStatus{MatchedPods: 3, UpdatedPods: 3, ReadyPods: 1, UpdatedReadyPods: 2},
			want: []wantErr{invalid("status.updatedReadyPods", "readyPods")}},
		{name: "collision count decremented", status: apps.SidecarSetStatus{CollisionCount: int32p(0)},
			want: []wantErr{invalid("status.collisionCount")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := newSidecarSet(t)
			old.Status.CollisionCount = int32p(1)
			ss := old.DeepCopy()
			ss.Status = tc.status
			if ss.Status.CollisionCount == nil {
				ss.Status.CollisionCount = old.Status.CollisionCount
			}
			expectErrors(t, ValidateSidecarSetStatusUpdate(ss, old), tc.want...)
		})
	}
}

func TestSidecarSetWarnings(t *testing.T) {
	ss := newSidecarSet(t)
	if w := SidecarSetWarnings(ss); len(w) != 0 {
		t.Fatalf("unexpected warnings: %v", w)
	}
	ss.Spec.UpdateStrategy.Paused = true
	ss.Spec.UpdateStrategy.Selector = matchLabels("canary", "true")
	ss.Spec.UpdateStrategy.Partition = intOrStr(1)
	ss.Spec.Volumes[0].Name = "nginx.conf"
	w := SidecarSetWarnings(ss)
	if len(w) != 2 || !strings.Contains(w[0], "spec.updateStrategy") || !strings.Contains(w[1], `"nginx-conf"`) {
		t.Fatalf("want a partition/selector and a volume name warning, got %q", w)
	}
}
