// Package containerrecreaterequest ties a new ContainerRecreateRequest to its pod: the
// pod must exist, be scheduled and running the named containers; the request gets the
// pod's UID and node as labels (node daemons watch their node's requests by it), the
// pod's grace period when it names none, and each container's preStop hook and
// statusContext (its containerID and restartCount in the pod's status).
package containerrecreaterequest

import (
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	genericadmissioninit "k8s.io/apiserver/pkg/admission/initializer"

	"github.com/kruise-native/kruise-native/pkg/admission/internal/livepods"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/podutil"
)

// PluginName is the name under --enable-admission-plugins / --disable-admission-plugins.
const PluginName = "KruiseContainerRecreateRequest"

// Register adds the plugin to a plugin registry.
func Register(plugins *admission.Plugins) {
	plugins.Register(PluginName, func(io.Reader) (admission.Interface, error) { return New(), nil })
}

// Plugin fills in and checks what a request needs from its pod, read on create
// (livepods: a request is rare, a pod cache of the whole cluster in this server would
// not be).
type Plugin struct {
	*admission.Handler
	livepods.Reader
}

var (
	_ admission.MutationInterface                     = &Plugin{}
	_ genericadmissioninit.WantsExternalKubeClientSet = &Plugin{}
	_ admission.InitializationValidator               = &Plugin{}
)

// New returns the plugin; it acts on CREATE only (the spec is immutable afterwards).
func New() *Plugin { return &Plugin{Handler: admission.NewHandler(admission.Create)} }

// Admit fills in the request from its pod or rejects it with the field at fault.
func (p *Plugin) Admit(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apps.Resource("containerrecreaterequests") || a.GetSubresource() != "" {
		return nil
	}
	crr, ok := a.GetObject().(*apps.ContainerRecreateRequest)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("unexpected object %T", a.GetObject()))
	}
	if crr.Spec.PodName == "" || len(crr.Spec.Containers) == 0 {
		return nil // validation reports both, with their paths
	}
	spec := field.NewPath("spec")
	if errs := readOnlyFieldsSet(crr, spec); len(errs) > 0 {
		return invalid(crr, errs)
	}
	pod, err := p.Pod(ctx, a.GetNamespace(), crr.Spec.PodName)
	if apierrors.IsNotFound(err) {
		return invalid(crr, field.ErrorList{field.NotFound(spec.Child("podName"), crr.Spec.PodName)})
	}
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("reading pod %s/%s: %w", a.GetNamespace(), crr.Spec.PodName, err))
	}
	if errs := fillFromPod(crr, pod, spec); len(errs) > 0 {
		return invalid(crr, errs)
	}
	return nil
}

// readOnlyFieldsSet rejects per-container fields only this plugin and the node daemon write.
func readOnlyFieldsSet(crr *apps.ContainerRecreateRequest, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range crr.Spec.Containers {
		p := spec.Child("containers").Index(i)
		if c.PreStop != nil {
			errs = append(errs, field.Forbidden(p.Child("preStop"), "read-only: copied from the pod's container"))
		}
		if c.Ports != nil {
			errs = append(errs, field.Forbidden(p.Child("ports"), "read-only: copied from the pod's container"))
		}
		if c.StatusContext != nil {
			errs = append(errs, field.Forbidden(p.Child("statusContext"), "read-only: copied from the pod's status"))
		}
	}
	return errs
}

// fillFromPod copies what the node daemon needs from the pod into the request.
func fillFromPod(crr *apps.ContainerRecreateRequest, pod *corev1.Pod, spec *field.Path) field.ErrorList {
	podName := spec.Child("podName")
	switch {
	case pod.DeletionTimestamp != nil:
		return field.ErrorList{field.Invalid(podName, pod.Name, "the pod is being deleted")}
	case pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed:
		return field.ErrorList{field.Invalid(podName, pod.Name, fmt.Sprintf("the pod has finished (phase %s)", pod.Status.Phase))}
	case pod.Spec.NodeName == "":
		return field.ErrorList{field.Invalid(podName, pod.Name, "the pod is not scheduled to a node yet")}
	}

	var errs field.ErrorList
	for i := range crr.Spec.Containers {
		c := &crr.Spec.Containers[i]
		name := spec.Child("containers").Index(i).Child("name")
		pc := podContainer(pod, c.Name)
		if pc == nil {
			errs = append(errs, field.NotFound(name, c.Name))
			continue
		}
		st := containerStatus(pod, c.Name)
		if st == nil || st.ContainerID == "" {
			errs = append(errs, field.Invalid(name, c.Name, "the container has not started yet (no containerID in the pod's status)"))
			continue
		}
		// The container to recreate is the one the pod runs now, as OpenKruise records
		// it at creation: clients read it from the create's answer, and every context
		// comes from one read of the pod, so a container's own restart afterwards is
		// not taken for another's (the node daemon records only what is missing).
		c.StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: st.ContainerID, RestartCount: st.RestartCount}
		if pc.Lifecycle != nil && pc.Lifecycle.PreStop != nil {
			h := pc.Lifecycle.PreStop
			c.PreStop = &apps.ProbeHandler{Exec: h.Exec, HTTPGet: h.HTTPGet, TCPSocket: h.TCPSocket}
			if h.HTTPGet != nil {
				// A named port in the hook resolves against the container's ports.
				c.Ports = pc.Ports
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}

	if crr.Labels == nil {
		crr.Labels = map[string]string{}
	}
	crr.Labels[v1alpha1.ContainerRecreateRequestPodNameKey] = pod.Name
	crr.Labels[v1alpha1.ContainerRecreateRequestPodUIDKey] = string(pod.UID)
	crr.Labels[v1alpha1.ContainerRecreateRequestNodeNameKey] = pod.Spec.NodeName
	crr.Labels[v1alpha1.ContainerRecreateRequestActiveKey] = "true"
	if crr.Spec.Strategy == nil {
		crr.Spec.Strategy = &apps.ContainerRecreateRequestStrategy{FailurePolicy: apps.ContainerRecreateRequestFailurePolicyFail}
	}
	if crr.Spec.Strategy.TerminationGracePeriodSeconds == nil && pod.Spec.TerminationGracePeriodSeconds != nil {
		grace := *pod.Spec.TerminationGracePeriodSeconds
		crr.Spec.Strategy.TerminationGracePeriodSeconds = &grace
	}
	return nil
}

func podContainer(pod *corev1.Pod, name string) *corev1.Container {
	return podutil.Container(pod, name)
}

func containerStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	return podutil.ContainerStatus(pod, name)
}

func invalid(crr *apps.ContainerRecreateRequest, errs field.ErrorList) error {
	return apierrors.NewInvalid(apps.Kind("ContainerRecreateRequest"), crr.Name, errs)
}
