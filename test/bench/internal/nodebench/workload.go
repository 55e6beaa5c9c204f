package nodebench

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// workloadName is every workload's name in its own namespace; appLabel its pods' label.
const (
	workloadName = "bench"
	appLabel     = "app"
	container    = "app"
)

// spec is what a rollout's workload is made of.
type spec struct {
	workload       string // CloneSetInPlace, CloneSetRecreate, Deployment
	namespace      string
	replicas       int32
	maxUnavailable intstr.IntOrString
	image          string
	// ignorePreDownload marks a CloneSet apps.kruise.io/image-predownload-ignored: with
	// the gate on, its rollouts pre-download nothing.
	ignorePreDownload bool
}

// podTemplate is the same for every workload: one container of the test image (its
// HTTP server exits at once on SIGTERM), no probes, BestEffort.
func (s spec) podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{appLabel: workloadName}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: container, Image: s.image, ImagePullPolicy: corev1.PullIfNotPresent,
		}}},
	}
}

func (s spec) selector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{appLabel: workloadName}}
}

// clients are the API clients a rollout needs.
type clients struct {
	kube   kubernetes.Interface
	kruise kruiseclient.Interface
}

// create makes the workload. Both kinds get maxSurge 0: with the same maxUnavailable
// each then has the same number of pods in flight.
func (c clients) create(ctx context.Context, s spec) error {
	zero := intstr.FromInt32(0)
	mu := s.maxUnavailable
	switch s.workload {
	case Deployment:
		d := &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: workloadName, Namespace: s.namespace},
			Spec: appsv1.DeploymentSpec{
				Replicas: &s.replicas, Selector: s.selector(), Template: s.podTemplate(),
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
					RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &mu, MaxSurge: &zero}},
			},
		}
		_, err := c.kube.AppsV1().Deployments(s.namespace).Create(ctx, d, metav1.CreateOptions{})
		return err
	case CloneSetInPlace, CloneSetRecreate:
		typ := appsv1alpha1.RecreateCloneSetUpdateStrategyType
		if s.workload == CloneSetInPlace {
			typ = appsv1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType
		}
		cs := &appsv1alpha1.CloneSet{
			ObjectMeta: metav1.ObjectMeta{Name: workloadName, Namespace: s.namespace},
			Spec: appsv1alpha1.CloneSetSpec{
				Replicas: &s.replicas, Selector: s.selector(), Template: s.podTemplate(),
				UpdateStrategy: appsv1alpha1.CloneSetUpdateStrategy{Type: typ, MaxUnavailable: &mu, MaxSurge: &zero},
			},
		}
		if s.ignorePreDownload {
			cs.Annotations = map[string]string{pub.ImagePreDownloadIgnoredKey: "true"}
		}
		_, err := c.kruise.AppsV1alpha1().CloneSets(s.namespace).Create(ctx, cs, metav1.CreateOptions{})
		return err
	}
	return fmt.Errorf("unknown workload %q", s.workload)
}

// setImage patches the pod template's image: the rollout's start.
func (c clients) setImage(ctx context.Context, s spec, image string) error {
	patch := []byte(fmt.Sprintf(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":%q}]`, image))
	var err error
	if s.workload == Deployment {
		_, err = c.kube.AppsV1().Deployments(s.namespace).Patch(ctx, workloadName, types.JSONPatchType, patch, metav1.PatchOptions{})
	} else {
		_, err = c.kruise.AppsV1alpha1().CloneSets(s.namespace).Patch(ctx, workloadName, types.JSONPatchType, patch, metav1.PatchOptions{})
	}
	return err
}

// statusDone reports nil once the workload's status says every replica is updated and
// ready at its latest generation.
func (c clients) statusDone(ctx context.Context, s spec) error {
	n := s.replicas
	if s.workload == Deployment {
		d, err := c.kube.AppsV1().Deployments(s.namespace).Get(ctx, workloadName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		st := d.Status
		if st.ObservedGeneration < d.Generation || st.Replicas != n || st.UpdatedReplicas != n || st.ReadyReplicas != n || st.AvailableReplicas != n {
			return fmt.Errorf("generation %d observed %d, replicas %d updated %d ready %d available %d, want %d",
				d.Generation, st.ObservedGeneration, st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, n)
		}
		return nil
	}
	cs, err := c.kruise.AppsV1alpha1().CloneSets(s.namespace).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	st := cs.Status
	if st.ObservedGeneration < cs.Generation || st.Replicas != n || st.UpdatedReadyReplicas != n || st.ReadyReplicas != n {
		return fmt.Errorf("generation %d observed %d, replicas %d updatedReady %d ready %d, want %d",
			cs.Generation, st.ObservedGeneration, st.Replicas, st.UpdatedReadyReplicas, st.ReadyReplicas, n)
	}
	return nil
}

// controllerClients are the audit log's names (audit.ClientOf) of the workload's
// controllers: kruise-controller for a CloneSet; the Deployment's deployment and
// replicaset controllers of kube-controller-manager.
func controllerClients(workload string) []string {
	if workload == Deployment {
		return []string{"kube-controller-manager/deployment-controller", "kube-controller-manager/replicaset-controller"}
	}
	return []string{"kruise-controller"}
}
