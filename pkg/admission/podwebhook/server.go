package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/klog/v2"
)

// maxRequestBytes bounds an AdmissionReview body: a pod is at most ~1.5 MiB in etcd.
const maxRequestBytes = 8 << 20

// errNotSynced is the answer while a handler's caches are filling.
var errNotSynced = errors.New("caches not synced yet")

// Server answers kube-apiserver's AdmissionReviews by running a fixed list of handlers:
// on the mutating path the mutating ones, in order, each seeing the pod as the ones
// before it left it; on the validating path the validating ones, in order, the first
// refusal deciding. Validating handlers never run in the mutating call: kube-apiserver
// calls them after every mutation (ours, other webhooks', its own), so they decide on
// the object that is stored, once.
type Server struct {
	handlers map[endpointKey][]Handler
}

// endpointKey is one path the server answers on: a phase of a webhook.
type endpointKey struct {
	phase   Phase
	webhook Webhook
}

func (k endpointKey) path() string { return endpointPath(k.phase, k.webhook) }

// NewServer returns a server running handlers, in their order. The list is the whole
// chain: there is no way to add to it later, so a test's handler cannot reach a
// server it did not build.
func NewServer(handlers []Handler) (*Server, error) {
	if err := validateHandlers(handlers); err != nil {
		return nil, err
	}
	s := &Server{handlers: map[endpointKey][]Handler{}}
	for _, h := range handlers {
		k := endpointKey{h.Phase(), h.WebhookName()}
		s.handlers[k] = append(s.handlers[k], h)
	}
	return s, nil
}

// Paths returns the HTTP handler of each phase of each webhook that has handlers,
// by path.
func (s *Server) Paths() map[string]http.Handler {
	out := map[string]http.Handler{}
	for k := range s.handlers {
		out[k.path()] = &endpoint{server: s, key: k}
	}
	return out
}

// Mutate runs the mutating handlers that match req and returns the response with the
// patch of their changes. An error means the webhook could not decide (the
// failurePolicy applies); a refusal is a response with Allowed false.
func (s *Server) Mutate(ctx context.Context, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	return s.mutate(ctx, endpointKey{Mutating, PodWebhook}, req)
}

func (s *Server) mutate(ctx context.Context, k endpointKey, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	matched, err := s.matching(k, req)
	if err != nil {
		return nil, err
	}
	if len(matched) == 0 {
		return &admissionv1.AdmissionResponse{Allowed: true}, nil
	}
	// If no handler applies to the pod as it came, none applies after the ones before
	// it ran (they left it as it came): the pod needs no decoding. Once one applies,
	// all run as usual, each seeing what the ones before it changed.
	applies, err := anyApplies(matched, req)
	if err != nil {
		return nil, err
	}
	if !applies {
		return &admissionv1.AdmissionResponse{Allowed: true}, nil
	}
	pod := &corev1.Pod{}
	if err := json.Unmarshal(req.Object.Raw, pod); err != nil {
		return refused(apierrors.NewBadRequest(fmt.Sprintf("decoding the pod: %v", err))), nil
	}
	// The namespace of a create is the request's; the object may leave it out.
	pod.Namespace = req.Namespace
	original := pod.DeepCopy()
	for i := range matched {
		h := &matched[i]
		if err := h.Mutate(ctx, req, pod); err != nil {
			if resp, ok := refusalResponse(err); ok {
				return resp, nil
			}
			return nil, fmt.Errorf("%s: %w", h.Name, err)
		}
	}
	if reflect.DeepEqual(original, pod) {
		// Most pods are left alone (no SidecarSet, spread or gate applies): equal pods
		// encode equally, so there is no patch, and the four JSON passes of podPatch
		// are skipped on the path every pod create takes.
		return &admissionv1.AdmissionResponse{Allowed: true}, nil
	}
	patch, err := podPatch(original, pod)
	if err != nil {
		return nil, err
	}
	if patch == nil {
		return &admissionv1.AdmissionResponse{Allowed: true}, nil
	}
	patchType := admissionv1.PatchTypeJSONPatch
	return &admissionv1.AdmissionResponse{Allowed: true, PatchType: &patchType, Patch: patch}, nil
}

// anyApplies reports whether some handler may change req's pod: one without an
// Applies check, or whose check says so.
func anyApplies(handlers []Handler, req *admissionv1.AdmissionRequest) (bool, error) {
	for i := range handlers {
		h := &handlers[i]
		if h.Applies == nil {
			return true, nil
		}
		applies, err := h.Applies(req)
		if err != nil {
			return false, fmt.Errorf("%s: %w", h.Name, err)
		}
		if applies {
			return true, nil
		}
	}
	return false, nil
}

// Validate runs the pod webhook's validating handlers that match req; the first
// refusal is the answer. Errors are as for Mutate.
func (s *Server) Validate(ctx context.Context, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	return s.validate(ctx, endpointKey{Validating, PodWebhook}, req)
}

func (s *Server) validate(ctx context.Context, k endpointKey, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	matched, err := s.matching(k, req)
	if err != nil {
		return nil, err
	}
	for i := range matched {
		h := &matched[i]
		if err := h.Validate(ctx, req); err != nil {
			if resp, ok := refusalResponse(err); ok {
				return resp, nil
			}
			return nil, fmt.Errorf("%s: %w", h.Name, err)
		}
	}
	return &admissionv1.AdmissionResponse{Allowed: true}, nil
}

// matching returns the phase's handlers for req, or errNotSynced when one of them is
// still waiting for its caches: running the others alone would answer differently
// from the full chain.
func (s *Server) matching(k endpointKey, req *admissionv1.AdmissionRequest) ([]Handler, error) {
	var out []Handler
	for _, h := range s.handlers[k] {
		if !h.matches(req) {
			continue
		}
		if h.Synced != nil && !h.Synced() {
			return nil, fmt.Errorf("%s: %w", h.Name, errNotSynced)
		}
		out = append(out, h)
	}
	return out, nil
}

func refusalResponse(err error) (*admissionv1.AdmissionResponse, bool) {
	status, ok := asRefusal(err)
	if !ok {
		return nil, false
	}
	return &admissionv1.AdmissionResponse{Allowed: false, Result: status}, true
}

// refused is the response refusing with err's status.
func refused(err error) *admissionv1.AdmissionResponse {
	resp, _ := refusalResponse(Deny(err))
	return resp
}

// endpoint serves one phase of one webhook over HTTP.
type endpoint struct {
	server *Server
	key    endpointKey
}

var _ http.Handler = &endpoint{}

// ServeHTTP decodes one AdmissionReview, runs the phase and encodes the answer. A
// handler's error, or caches still filling, is an HTTP error rather than a denial, so
// kube-apiserver applies the configuration's failurePolicy.
func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rw := &codeRecorder{ResponseWriter: w, code: http.StatusOK}
	defer func() {
		handlerDuration.WithLabelValues(string(e.key.webhook), string(e.key.phase), strconv.Itoa(rw.code)).Observe(time.Since(start).Seconds())
	}()
	logger := klog.FromContext(r.Context()).WithName("kruise-webhook").WithValues("webhook", e.key.webhook, "phase", e.key.phase)
	if r.Method != http.MethodPost {
		http.Error(rw, "POST an admission.k8s.io/v1 AdmissionReview", http.StatusMethodNotAllowed)
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
	req := review.Request
	logger = logger.WithValues("operation", req.Operation, "resource", req.Resource.Resource,
		"subresource", req.SubResource, "object", klog.KRef(req.Namespace, req.Name), "uid", req.UID)
	ctx := klog.NewContext(r.Context(), logger)
	run := e.server.mutate
	if e.key.phase == Validating {
		run = e.server.validate
	}
	resp, err := run(ctx, e.key, req)
	switch {
	case errors.Is(err, errNotSynced):
		http.Error(rw, err.Error(), http.StatusServiceUnavailable)
		return
	case err != nil:
		logger.Error(err, "Admission failed")
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	resp.UID = req.UID
	out, err := json.Marshal(&admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp})
	if err != nil {
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	_, _ = rw.Write(out)
	logger.V(3).Info("Admission review answered", "allowed", resp.Allowed, "patched", resp.Patch != nil,
		"duration", time.Since(start))
}

// codeRecorder remembers the status code written, for handlerDuration.
type codeRecorder struct {
	http.ResponseWriter
	code int
}

func (c *codeRecorder) WriteHeader(code int) {
	c.code = code
	c.ResponseWriter.WriteHeader(code)
}
