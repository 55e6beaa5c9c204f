package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Operations, short.
var (
	opCreate = admissionregistrationv1.Create
	opUpdate = admissionregistrationv1.Update
	opDelete = admissionregistrationv1.Delete
)

func rule(r Resource, ops ...admissionregistrationv1.OperationType) Rule {
	return Rule{Operations: ops, Resource: r}
}

// calls records which handlers ran, in order.
type calls []string

// mutating is a handler that records its call and then runs do (if set).
func (c *calls) mutating(name string, do func(pod *corev1.Pod) error, rules ...Rule) Handler {
	return Handler{Name: name, Rules: rules, Mutate: func(_ context.Context, _ *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
		*c = append(*c, name)
		if do == nil {
			return nil
		}
		return do(pod)
	}}
}

// validating is a handler that records its call and then returns decide's answer (nil if unset).
func (c *calls) validating(name string, decide func(req *admissionv1.AdmissionRequest) error, rules ...Rule) Handler {
	return Handler{Name: name, Rules: rules, Validate: func(_ context.Context, req *admissionv1.AdmissionRequest) error {
		*c = append(*c, name)
		if decide == nil {
			return nil
		}
		return decide(req)
	}}
}

func mustServer(t *testing.T, handlers ...Handler) *Server {
	t.Helper()
	s, err := NewServer(handlers)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// request is an AdmissionRequest for op on gvr (and subresource) carrying pod as the
// new object (CREATE, UPDATE) or the old one (DELETE).
func request(t *testing.T, op admissionv1.Operation, gvr schema.GroupVersionResource, subresource string, pod *corev1.Pod) *admissionv1.AdmissionRequest {
	t.Helper()
	req := &admissionv1.AdmissionRequest{UID: "uid-1", Operation: op, Namespace: "default", Name: pod.Name,
		Resource: metav1.GroupVersionResource(gvr), SubResource: subresource}
	raw, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	if op == admissionv1.Delete {
		req.OldObject = runtime.RawExtension{Raw: raw}
	} else {
		req.Object = runtime.RawExtension{Raw: raw}
	}
	return req
}

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

func plainPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:v1"}}}}
}

// A request reaches the handlers of its phase whose rules name its operation,
// resource and subresource, and no others.
func TestDispatchMatching(t *testing.T) {
	var got calls
	server := mustServer(t,
		got.mutating("m-create", nil, rule(Pods, opCreate)),
		got.mutating("m-update", nil, rule(Pods, opUpdate)),
		got.validating("v-delete", nil, rule(Pods, opDelete)),
		got.validating("v-evict", nil, rule(PodEvictions, opCreate)),
		got.validating("v-create-update", nil, rule(Pods, opCreate, opUpdate)),
		got.validating("v-pub", nil, rule(Pods, opDelete, opUpdate), rule(PodEvictions, opCreate)),
	)
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	for _, tc := range []struct {
		phase       Phase
		op          admissionv1.Operation
		gvr         schema.GroupVersionResource
		subresource string
		want        calls
	}{
		{Mutating, admissionv1.Create, podsGVR, "", calls{"m-create"}},
		{Mutating, admissionv1.Update, podsGVR, "", calls{"m-update"}},
		{Mutating, admissionv1.Delete, podsGVR, "", nil},
		{Mutating, admissionv1.Create, podsGVR, "binding", nil},
		{Validating, admissionv1.Delete, podsGVR, "", calls{"v-delete", "v-pub"}},
		{Validating, admissionv1.Create, podsGVR, "eviction", calls{"v-evict", "v-pub"}},
		{Validating, admissionv1.Create, podsGVR, "", calls{"v-create-update"}},
		{Validating, admissionv1.Update, podsGVR, "", calls{"v-create-update", "v-pub"}},
		{Validating, admissionv1.Update, podsGVR, "status", nil},
		{Validating, admissionv1.Delete, deployments, "", nil},
		{Validating, admissionv1.Delete, schema.GroupVersionResource{Version: "v1beta1", Resource: "pods"}, "", nil},
	} {
		name := fmt.Sprintf("%s %s %s/%s", tc.phase, tc.op, tc.gvr.Resource, tc.subresource)
		t.Run(name, func(t *testing.T) {
			got = nil
			req := request(t, tc.op, tc.gvr, tc.subresource, plainPod("p"))
			run := server.Mutate
			if tc.phase == Validating {
				run = server.Validate
			}
			resp, err := run(context.Background(), req)
			if err != nil || !resp.Allowed {
				t.Fatalf("resp %+v, err %v: want allowed", resp, err)
			}
			if !cmp.Equal(got, tc.want) {
				t.Errorf("ran %v, want %v", got, tc.want)
			}
		})
	}
}

// Mutating handlers run in order, each seeing what the ones before it changed, and
// the one patch kube-apiserver gets carries all their changes, including two changes
// to the same field and a field one of them emptied.
func TestMutatingChainComposesPatches(t *testing.T) {
	var got calls
	first := func(pod *corev1.Pod) error {
		pod.Labels = map[string]string{"injected": "sidecar"}
		pod.Annotations = map[string]string{"first": "1"}
		pod.Spec.Containers = append([]corev1.Container{{Name: "sidecar", Image: "sidecar:v1"}}, pod.Spec.Containers...)
		return nil
	}
	second := func(pod *corev1.Pod) error {
		// Depends on the first handler's changes.
		if pod.Labels["injected"] != "sidecar" || len(pod.Spec.Containers) != 2 {
			return fmt.Errorf("the first handler's changes are not visible: %+v", pod)
		}
		pod.Annotations["second"] = "saw " + pod.Spec.Containers[0].Name
		for i := range pod.Spec.Containers {
			pod.Spec.Containers[i].Env = append(pod.Spec.Containers[i].Env, corev1.EnvVar{Name: "ORDER", Value: "2"})
		}
		pod.Spec.NodeSelector = nil
		return nil
	}
	server := mustServer(t, got.mutating("first", first, rule(Pods, opCreate)), got.mutating("second", second, rule(Pods, opCreate)))

	in := plainPod("web-0")
	in.Spec.NodeSelector = map[string]string{"zone": "a"}
	raw, _ := json.Marshal(in)
	resp, err := server.Mutate(context.Background(), request(t, admissionv1.Create, podsGVR, "", in))
	if err != nil || !resp.Allowed || resp.Patch == nil || *resp.PatchType != admissionv1.PatchTypeJSONPatch {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	if !cmp.Equal(got, calls{"first", "second"}) {
		t.Fatalf("ran %v, want first then second", got)
	}
	out := applyPatch(t, raw, resp.Patch)

	want := in.DeepCopy()
	if err := first(want); err != nil {
		t.Fatal(err)
	}
	if err := second(want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("patched pod differs from the pod both handlers left (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(resp.Patch), `"op":"remove","path":"/spec/nodeSelector"`) {
		t.Errorf("patch %s does not remove the emptied nodeSelector", resp.Patch)
	}

	// Handlers that change nothing produce no patch.
	idle := mustServer(t, got.mutating("idle", nil, rule(Pods, opCreate)))
	resp, err = idle.Mutate(context.Background(), request(t, admissionv1.Create, podsGVR, "", in))
	if err != nil || !resp.Allowed || resp.Patch != nil {
		t.Errorf("no change: err %v, response %+v, want allowed without a patch", err, resp)
	}
}

// kube-apiserver calls the mutating path, applies its patch, then calls the validating
// path with the result: the validating handlers decide on the mutated pod, and each
// path runs only its own handlers.
func TestMutatingThenValidating(t *testing.T) {
	var got calls
	stamp := func(pod *corev1.Pod) error {
		pod.Annotations = map[string]string{"stamped": "true"}
		return nil
	}
	requireStamp := func(req *admissionv1.AdmissionRequest) error {
		pod := &corev1.Pod{}
		if err := json.Unmarshal(req.Object.Raw, pod); err != nil {
			return err
		}
		if pod.Annotations["stamped"] != "true" {
			return DenyWith(http.StatusForbidden, metav1.StatusReasonForbidden, "not stamped")
		}
		return nil
	}
	server := mustServer(t,
		got.validating("require-stamp", requireStamp, rule(Pods, opCreate)),
		got.mutating("stamp", stamp, rule(Pods, opCreate)),
	)
	pod := plainPod("p")
	raw, _ := json.Marshal(pod)

	mutated := callPath(t, server, MutatePath, request(t, admissionv1.Create, podsGVR, "", pod))
	if !cmp.Equal(got, calls{"stamp"}) {
		t.Fatalf("mutating path ran %v, want the mutating handler only", got)
	}
	got = nil
	validated := callPath(t, server, ValidatePath, request(t, admissionv1.Create, podsGVR, "", applyPatch(t, raw, mutated.Patch)))
	if !cmp.Equal(got, calls{"require-stamp"}) || !validated.Allowed {
		t.Fatalf("validating path ran %v, allowed %v: want require-stamp allowing the stamped pod", got, validated.Allowed)
	}
	// Without the mutation the validating handler refuses: it really looked.
	if resp := callPath(t, server, ValidatePath, request(t, admissionv1.Create, podsGVR, "", pod)); resp.Allowed {
		t.Error("an unstamped pod was allowed")
	}
}

// A refusal is allowed=false with the handler's code, reason and message, and ends the
// chain; an error that is not a refusal is an HTTP error (the failurePolicy decides),
// even when it carries an API status.
func TestRefusalsAndErrors(t *testing.T) {
	invalid := apierrors.NewInvalid(schema.GroupKind{Kind: "Pod"}, "p",
		field.ErrorList{field.Invalid(field.NewPath("spec", "x"), "y", "bad")})
	for _, tc := range []struct {
		name     string
		phase    Phase
		err      error
		wantHTTP int
		wantCode int32
		wantMsg  string
		reason   metav1.StatusReason
	}{
		{"validating 429", Validating, DenyWith(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests, "budget spent"),
			http.StatusOK, http.StatusTooManyRequests, "budget spent", metav1.StatusReasonTooManyRequests},
		{"validating plain error denied", Validating, Deny(errors.New("protected")),
			http.StatusOK, http.StatusForbidden, "protected", metav1.StatusReasonForbidden},
		{"mutating 422 with causes", Mutating, Deny(invalid),
			http.StatusOK, http.StatusUnprocessableEntity, "spec.x", metav1.StatusReasonInvalid},
		{"wrapped refusal", Validating, fmt.Errorf("checking: %w", DenyWith(http.StatusConflict, metav1.StatusReasonConflict, "busy")),
			http.StatusOK, http.StatusConflict, "busy", metav1.StatusReasonConflict},
		{"error", Validating, errors.New("cache broken"), http.StatusInternalServerError, 0, "cache broken", ""},
		{"API error from a client call is no denial", Mutating, apierrors.NewNotFound(schema.GroupResource{Resource: "controllerrevisions"}, "r1"),
			http.StatusInternalServerError, 0, "not found", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got calls
			fail := func() error { return tc.err }
			var handlers []Handler
			if tc.phase == Mutating {
				handlers = []Handler{
					got.mutating("fails", func(*corev1.Pod) error { return fail() }, rule(Pods, opCreate)),
					got.mutating("after", nil, rule(Pods, opCreate)),
				}
			} else {
				handlers = []Handler{
					got.validating("fails", func(*admissionv1.AdmissionRequest) error { return fail() }, rule(Pods, opCreate)),
					got.validating("after", nil, rule(Pods, opCreate)),
				}
			}
			server := mustServer(t, handlers...)
			code, body := post(t, server, tc.phase.Path(), request(t, admissionv1.Create, podsGVR, "", plainPod("p")))
			if code != tc.wantHTTP {
				t.Fatalf("HTTP %d (%s), want %d", code, body, tc.wantHTTP)
			}
			if !cmp.Equal(got, calls{"fails"}) {
				t.Errorf("ran %v: the chain must stop at the first refusal or error", got)
			}
			if code != http.StatusOK {
				if !strings.Contains(body, tc.wantMsg) {
					t.Errorf("error body %q, want it to say %q", body, tc.wantMsg)
				}
				return
			}
			resp := decodeResponse(t, body)
			if resp.Allowed || resp.Result == nil || resp.Result.Code != tc.wantCode || resp.Result.Reason != tc.reason ||
				!strings.Contains(resp.Result.Message, tc.wantMsg) || resp.UID != "uid-1" || resp.Patch != nil {
				t.Errorf("response %+v (result %+v), want a refusal %d %s %q", resp, resp.Result, tc.wantCode, tc.reason, tc.wantMsg)
			}
		})
	}
}

// A handler whose caches have not synced holds back (503) the requests it would see,
// and only those.
func TestSyncIsPerHandler(t *testing.T) {
	var got calls
	pub := got.validating("pub", nil, rule(Pods, opDelete))
	pub.Synced = func() bool { return false }
	server := mustServer(t, pub, got.validating("create-check", nil, rule(Pods, opCreate)))
	if code, body := post(t, server, ValidatePath, request(t, admissionv1.Delete, podsGVR, "", plainPod("p"))); code != http.StatusServiceUnavailable {
		t.Errorf("delete while pub's caches fill: HTTP %d (%s), want 503", code, body)
	}
	if code, _ := post(t, server, ValidatePath, request(t, admissionv1.Create, podsGVR, "", plainPod("p"))); code != http.StatusOK {
		t.Errorf("create (pub not involved): HTTP %d, want 200", code)
	}
	if !cmp.Equal(got, calls{"create-check"}) {
		t.Errorf("ran %v", got)
	}
}

func TestHTTPErrors(t *testing.T) {
	server := mustServer(t, (&calls{}).validating("v", nil, rule(Pods, opDelete)))
	h := server.Paths()[ValidatePath]
	for _, tc := range []struct {
		method, body string
		want         int
	}{
		{http.MethodGet, "", http.StatusMethodNotAllowed},
		{http.MethodPost, "not json", http.StatusBadRequest},
		{http.MethodPost, `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`, http.StatusBadRequest},
	} {
		rec := newRecorder(h, tc.method, ValidatePath, []byte(tc.body))
		if rec.Code != tc.want {
			t.Errorf("%s %q: HTTP %d, want %d", tc.method, tc.body, rec.Code, tc.want)
		}
	}
}

// Only the phases that have handlers are served.
func TestPaths(t *testing.T) {
	var c calls
	paths := func(s *Server) []string {
		var out []string
		for p := range s.Paths() {
			out = append(out, p)
		}
		return out
	}
	if got := paths(mustServer(t, c.mutating("m", nil, rule(Pods, opCreate)))); !cmp.Equal(got, []string{MutatePath}) {
		t.Errorf("mutating only: %v", got)
	}
	if got := paths(mustServer(t, c.validating("v", nil, rule(Pods, opDelete)))); !cmp.Equal(got, []string{ValidatePath}) {
		t.Errorf("validating only: %v", got)
	}
	if Mutating.Path() != MutatePath || Validating.Path() != ValidatePath {
		t.Error("paths renamed")
	}
}

func TestNewServerRejectsInvalidLists(t *testing.T) {
	var c calls
	ok := c.validating("ok", nil, rule(Pods, opDelete))
	both := c.mutating("both", nil, rule(Pods, opCreate))
	both.Validate = ok.Validate
	neither := Handler{Name: "neither", Rules: []Rule{rule(Pods, opCreate)}}
	for name, handlers := range map[string][]Handler{
		"no name":               {c.validating("", nil, rule(Pods, opDelete))},
		"name twice":            {ok, ok},
		"mutate and validate":   {both},
		"neither":               {neither},
		"no rules":              {c.validating("v", nil)},
		"no operations":         {c.validating("v", nil, rule(Pods))},
		"CONNECT":               {c.validating("v", nil, rule(Pods, admissionregistrationv1.Connect))},
		"wildcard":              {c.validating("v", nil, rule(Pods, admissionregistrationv1.OperationAll))},
		"no scope":              {c.validating("v", nil, rule(Resource{Version: "v1", Resource: "pods"}, opDelete))},
		"mutating an eviction":  {c.mutating("m", nil, rule(PodEvictions, opCreate))},
		"mutating on delete":    {c.mutating("m", nil, rule(Pods, opDelete))},
		"mutating another kind": {c.mutating("m", nil, rule(Resource{Group: "apps", Version: "v1", Resource: "deployments", Scope: "Namespaced"}, opCreate))},
	} {
		if _, err := NewServer(handlers); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := NewServer(EveryHandler()); err != nil {
		t.Errorf("kruise-apiserver's chain: %v", err)
	}
}

// callPath posts req to path as kube-apiserver does and returns the response.
func callPath(t *testing.T, s *Server, path string, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	t.Helper()
	code, body := post(t, s, path, req)
	if code != http.StatusOK {
		t.Fatalf("POST %s: HTTP %d: %s", path, code, body)
	}
	return decodeResponse(t, body)
}

func post(t *testing.T, s *Server, path string, req *admissionv1.AdmissionRequest) (int, string) {
	t.Helper()
	body, err := json.Marshal(&admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}, Request: req})
	if err != nil {
		t.Fatal(err)
	}
	rec := serve(s, path, body)
	return rec.Code, rec.Body.String()
}

func decodeResponse(t *testing.T, body string) *admissionv1.AdmissionResponse {
	t.Helper()
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal([]byte(body), &review); err != nil || review.Response == nil {
		t.Fatalf("not an AdmissionReview with a response (%v): %s", err, body)
	}
	return review.Response
}
