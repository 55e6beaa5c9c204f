package kubectlkruise

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/rest/fake"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
)

// rollbackRequest is one POST the fake server received.
type rollbackRequest struct {
	path, dryRun string
	body         map[string]interface{}
}

// rollbackServer answers rollback POSTs as kruise-apiserver would: revision 1 exists,
// any other is a 400 with the server's message; the answer is the workload.
func rollbackServer(t *testing.T, got *[]rollbackRequest) func(schema.GroupVersion) (resource.RESTClient, error) {
	return func(gv schema.GroupVersion) (resource.RESTClient, error) {
		return &fake.RESTClient{
			GroupVersion:         gv,
			NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
			Client: fake.CreateHTTPClient(func(req *http.Request) (*http.Response, error) {
				data, _ := io.ReadAll(req.Body)
				var body map[string]interface{}
				if err := json.Unmarshal(data, &body); err != nil {
					t.Errorf("rollback body %q: %v", data, err)
				}
				*got = append(*got, rollbackRequest{path: gv.String() + " " + req.Method + " " + req.URL.Path, dryRun: req.URL.Query().Get("dryRun"), body: body})
				header := http.Header{"Content-Type": []string{"application/json"}}
				if to, _ := body["toRevision"].(float64); to > 1 {
					status := runtime.EncodeOrDie(scheme.Codecs.LegacyCodec(metav1.SchemeGroupVersion), &metav1.Status{
						Status: metav1.StatusFailure, Reason: metav1.StatusReasonBadRequest, Code: http.StatusBadRequest,
						Message: `clonesets.apps.kruise.io "w" has no revision 42; available revisions: 1, 2`,
					})
					return &http.Response{StatusCode: http.StatusBadRequest, Header: header, Body: io.NopCloser(strings.NewReader(status))}, nil
				}
				kind := strings.TrimSuffix(body["kind"].(string), "Rollback")
				answer := fmt.Sprintf(`{"apiVersion":%q,"kind":%q,"metadata":{"name":"w","namespace":"ns"}}`, gv.String(), kind)
				return &http.Response{StatusCode: http.StatusOK, Header: header, Body: io.NopCloser(strings.NewReader(answer))}, nil
			}),
		}, nil
	}
}

func TestUndoPostsRollbackSubresource(t *testing.T) {
	var got []rollbackRequest
	c := &Clients{REST: rollbackServer(t, &got)}
	tg := targetOf(t, workload("v1beta1", "CloneSet", map[string]interface{}{}, nil), "clonesets")
	var out bytes.Buffer
	if err := undo(context.Background(), c, tg, 0, cmdutil.DryRunNone, namePrinter(t, "rolled back"), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "cloneset.apps.kruise.io/w rolled back\n" {
		t.Errorf("output %q", out.String())
	}
	err := undo(context.Background(), c, tg, 42, cmdutil.DryRunNone, namePrinter(t, "rolled back"), &out)
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "no revision 42") {
		t.Errorf("undo to a missing revision: %v, want the server's 400", err)
	}
	if len(got) != 2 {
		t.Fatalf("requests = %+v, want 2", got)
	}
	for i, want := range []float64{0, 42} {
		r := got[i]
		if r.path != "apps.kruise.io/v1beta1 POST /namespaces/ns/clonesets/w/rollback" || r.body["kind"] != "CloneSetRollback" ||
			r.body["apiVersion"] != "apps.kruise.io/v1beta1" || r.body["name"] != "w" || r.body["toRevision"] != want {
			t.Errorf("request %d = %+v", i, r)
		}
	}
}

func TestUndoDaemonSetServerDryRun(t *testing.T) {
	var got []rollbackRequest
	tg := targetOf(t, workload("v1beta1", "DaemonSet", map[string]interface{}{}, nil), "daemonsets")
	var out bytes.Buffer
	p, err := cmdutil.PrintFlagsWithDryRunStrategy(namePrintFlags("rolled back"), cmdutil.DryRunServer).ToPrinter()
	if err != nil {
		t.Fatal(err)
	}
	if err := undo(context.Background(), &Clients{REST: rollbackServer(t, &got)}, tg, 1, cmdutil.DryRunServer, p, &out); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].path != "apps.kruise.io/v1beta1 POST /namespaces/ns/daemonsets/w/rollback" || got[0].body["kind"] != "DaemonSetRollback" {
		t.Fatalf("requests = %+v, want one v1beta1 DaemonSetRollback", got)
	}
	if got[0].dryRun != "All" {
		t.Errorf("server dry run not requested: %q", got[0].dryRun)
	}
	if out.String() != "daemonset.apps.kruise.io/w rolled back (server dry run)\n" {
		t.Errorf("output %q", out.String())
	}
}

// A client dry run does not pick the revision itself: it asks the server for a dry run
// (which writes nothing) and prints the answer; the server's refusal is the error.
func TestUndoClientDryRunAsksTheServer(t *testing.T) {
	var posted []rollbackRequest
	tg := targetOf(t, workload("v1beta1", "CloneSet", map[string]interface{}{}, nil), "clonesets")
	var out bytes.Buffer
	p, err := cmdutil.PrintFlagsWithDryRunStrategy(namePrintFlags("rolled back"), cmdutil.DryRunClient).ToPrinter()
	if err != nil {
		t.Fatal(err)
	}
	if err := undo(context.Background(), &Clients{REST: rollbackServer(t, &posted)}, tg, 0, cmdutil.DryRunClient, p, &out); err != nil {
		t.Fatal(err)
	}
	if len(posted) != 1 || posted[0].dryRun != "All" {
		t.Fatalf("requests = %+v, want one server dry run", posted)
	}
	if out.String() != "cloneset.apps.kruise.io/w rolled back (dry run)\n" {
		t.Errorf("output %q", out.String())
	}
	err = undo(context.Background(), &Clients{REST: rollbackServer(t, &posted)}, tg, 42, cmdutil.DryRunClient, p, &out)
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "no revision 42") {
		t.Errorf("client dry run to a missing revision: %v, want the server's 400", err)
	}
}
