// Package podwebhook is kruise-apiserver's mutating webhook for core Pods, served on
// its TLS port at Path and registered by a MutatingWebhookConfiguration for pod
// CREATE. It injects the sidecars of the SidecarSets that select the new pod, holds
// containers back by launch priority, and (optionally) gives pods of Kruise workloads
// the KruisePodReady readiness gate. It acts on creates only, so it is never in the
// way of pod updates, deletions or status writes.
package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// Path is where kruise-apiserver serves the webhook.
const Path = "/admission/mutate/pods"

// maxRequestBytes bounds an AdmissionReview body: a pod is at most ~1.5 MiB in etcd.
const maxRequestBytes = 8 << 20

// Config is what the webhook reads and how it behaves.
type Config struct {
	// SidecarSets lists the SidecarSets (from an informer cache).
	SidecarSets func() ([]*v1beta1.SidecarSet, error)
	// NamespaceLabels reads namespace labels (from an informer cache, falling back to
	// kube-apiserver for a namespace created a moment ago).
	NamespaceLabels func(ctx context.Context, namespace string) (labels.Set, error)
	// PinnedRevision returns the ControllerRevision a SidecarSet's
	// injectionStrategy.revision names.
	PinnedRevision func(ctx context.Context, ss *apps.SidecarSet) (*appsv1.ControllerRevision, error)
	// Synced reports whether both caches have synced; until then the webhook answers
	// 503 and kube-apiserver applies the configured failurePolicy.
	Synced func() bool
	// ReadinessGate gives pods of Kruise workloads the KruisePodReady gate. It costs
	// their controller one pod status write per new pod (the condition must be set
	// True), so it is off unless asked for.
	ReadinessGate bool
	// Now is the clock of the injection timestamps.
	Now func() time.Time
}

// Webhook serves Path.
type Webhook struct {
	cfg    Config
	scheme *runtime.Scheme
}

var _ http.Handler = &Webhook{}

// New returns the webhook.
func New(cfg Config) *Webhook {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := runtime.NewScheme()
	// Both are compiled in: registering them cannot fail at run time.
	utilruntime.Must(apps.AddToScheme(s))
	utilruntime.Must(v1beta1.AddToScheme(s))
	return &Webhook{cfg: cfg, scheme: s}
}

// ServeHTTP answers one AdmissionReview.
func (w *Webhook) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	logger := klog.FromContext(r.Context()).WithName("pod-webhook")
	if r.Method != http.MethodPost {
		http.Error(rw, "POST an admission.k8s.io/v1 AdmissionReview", http.StatusMethodNotAllowed)
		return
	}
	if !w.cfg.Synced() {
		// An error, not a denial: kube-apiserver then applies the failurePolicy.
		http.Error(rw, "caches not synced yet", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, maxRequestBytes))
	if err != nil {
		http.Error(rw, fmt.Sprintf("reading the request: %v", err), http.StatusBadRequest)
		return
	}
	review := &admissionv1.AdmissionReview{}
	if err := json.Unmarshal(body, review); err != nil || review.Request == nil {
		http.Error(rw, "the body is not an admission.k8s.io/v1 AdmissionReview with a request", http.StatusBadRequest)
		return
	}
	resp, err := w.Admit(klog.NewContext(r.Context(), logger), review.Request)
	if err != nil {
		logger.Error(err, "Pod admission failed", "namespace", review.Request.Namespace, "uid", review.Request.UID)
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	resp.UID = review.Request.UID
	out, err := json.Marshal(&admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp})
	if err != nil {
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	_, _ = rw.Write(out)
}

// Admit mutates one new pod. An error means the webhook could not decide (the
// failurePolicy applies); a denial is a response with Allowed false.
func (w *Webhook) Admit(ctx context.Context, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	allowed := &admissionv1.AdmissionResponse{Allowed: true}
	if req.Operation != admissionv1.Create || req.SubResource != "" ||
		req.Resource.Group != "" || req.Resource.Resource != "pods" {
		return allowed, nil
	}
	pod := &corev1.Pod{}
	if err := json.Unmarshal(req.Object.Raw, pod); err != nil {
		return deny(apierrors.NewBadRequest(fmt.Sprintf("decoding the pod: %v", err))), nil
	}
	// The namespace of a create is the request's; the object may leave it out.
	pod.Namespace = req.Namespace
	original := pod.DeepCopy()

	matched, err := w.matchingSidecarSets(ctx, pod)
	if err != nil {
		return nil, err
	}
	if len(matched) > 0 {
		if err := injectSidecarSets(pod, matched, metav1.NewTime(w.cfg.Now())); err != nil {
			return nil, err
		}
	}
	if _, errs := injectLaunchPriority(pod); len(errs) > 0 {
		return deny(apierrors.NewInvalid(corev1.SchemeGroupVersion.WithKind("Pod").GroupKind(), pod.Name, errs)), nil
	}
	if w.cfg.ReadinessGate {
		injectReadinessGate(pod)
	}
	patch, err := podPatch(original, pod)
	if err != nil || patch == nil {
		return allowed, err
	}
	names := make([]string, 0, len(matched))
	for _, ss := range matched {
		names = append(names, ss.Name)
	}
	klog.FromContext(ctx).V(2).Info("Mutated pod", "pod", klog.KRef(req.Namespace, pod.Name), "sidecarSets", names)
	patchType := admissionv1.PatchTypeJSONPatch
	return &admissionv1.AdmissionResponse{Allowed: true, PatchType: &patchType, Patch: patch}, nil
}

// matchingSidecarSets are the SidecarSets that inject into pod (injection not paused),
// as hub objects.
func (w *Webhook) matchingSidecarSets(ctx context.Context, pod *corev1.Pod) ([]*apps.SidecarSet, error) {
	all, err := w.cfg.SidecarSets()
	if err != nil {
		return nil, fmt.Errorf("listing SidecarSets: %w", err)
	}
	nsLabels := func(ns string) (labels.Set, error) { return w.cfg.NamespaceLabels(ctx, ns) }
	var out []*apps.SidecarSet
	for _, v := range all {
		if v.Spec.InjectionStrategy.Paused || v.DeletionTimestamp != nil {
			continue
		}
		ss := &apps.SidecarSet{}
		if err := w.scheme.Convert(v, ss, nil); err != nil {
			return nil, fmt.Errorf("converting SidecarSet %s: %w", v.Name, err)
		}
		ok, err := sidecarset.Matches(ss, pod, nsLabels)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if ss, err = w.pinned(ctx, ss, pod); err != nil {
			return nil, err
		}
		out = append(out, ss)
	}
	return out, nil
}

// pinned returns ss as it injects into pod: with injectionStrategy.revision, what that
// revision recorded, except for a pod the update strategy's canary selector picks
// while the rollout runs, which gets the latest sidecars (OpenKruise's rule for both
// policies; Partial's share of latest injections by partition is not implemented). A
// pinned revision that cannot be read is an error, so the failurePolicy decides rather
// than a silent injection of the latest version.
func (w *Webhook) pinned(ctx context.Context, ss *apps.SidecarSet, pod *corev1.Pod) (*apps.SidecarSet, error) {
	if ss.Spec.InjectionStrategy.Revision == nil {
		return ss, nil
	}
	if s := &ss.Spec.UpdateStrategy; s.Selector != nil && !s.Paused {
		canary, err := metav1.LabelSelectorAsSelector(s.Selector)
		if err != nil {
			return nil, fmt.Errorf("updateStrategy.selector of SidecarSet %s: %w", ss.Name, err)
		}
		if canary.Matches(labels.Set(pod.Labels)) {
			return ss, nil
		}
	}
	if w.cfg.PinnedRevision == nil {
		return nil, fmt.Errorf("SidecarSet %s pins a revision, and no revision reader is configured", ss.Name)
	}
	rev, err := w.cfg.PinnedRevision(ctx, ss)
	if err != nil {
		return nil, fmt.Errorf("the revision SidecarSet %s injects: %w", ss.Name, err)
	}
	return sidecarset.WithRevision(ss, rev)
}

// deny turns an API error into a refusal with its status (code, reason, causes).
func deny(err error) *admissionv1.AdmissionResponse {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return &admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{Message: err.Error()}}
	}
	s := status.Status()
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &s}
}
