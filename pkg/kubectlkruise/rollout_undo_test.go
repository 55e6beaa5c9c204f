package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
)

// rollbackServer answers rollback POSTs as kruise-apiserver would: revision 1 exists.
func rollbackServer(kc *kruisefake.Clientset, got *[]int64) {
	kc.PrependReactor("create", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		ca, ok := a.(clienttesting.CreateAction)
		if !ok || a.GetSubresource() != "rollback" {
			return false, nil, nil
		}
		var to int64
		var answer runtime.Object
		switch body := ca.GetObject().(type) {
		case *v1beta1.CloneSetRollback:
			to, answer = body.ToRevision, &v1beta1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: a.(clienttesting.CreateActionImpl).Name}}
		case *v1alpha1.DaemonSetRollback:
			to, answer = body.ToRevision, &v1alpha1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: a.(clienttesting.CreateActionImpl).Name}}
		}
		*got = append(*got, to)
		if to > 1 {
			return true, nil, apierrors.NewBadRequest(`clonesets.apps.kruise.io "w" has no revision 42; available revisions: 1, 2`)
		}
		return true, answer, nil
	})
}

func TestUndoPostsRollbackSubresource(t *testing.T) {
	kc := kruisefake.NewClientset()
	var got []int64
	rollbackServer(kc, &got)
	tg := targetOf(t, workload("v1beta1", "CloneSet", map[string]interface{}{}, nil), "clonesets")
	var out bytes.Buffer
	if err := undo(context.Background(), &Clients{Kruise: kc}, tg, 0, cmdutil.DryRunNone, namePrinter(t, "rolled back"), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "cloneset.apps.kruise.io/w rolled back\n" {
		t.Errorf("output %q", out.String())
	}
	err := undo(context.Background(), &Clients{Kruise: kc}, tg, 42, cmdutil.DryRunNone, namePrinter(t, "rolled back"), &out)
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "no revision 42") {
		t.Errorf("undo to a missing revision: %v, want the server's 400", err)
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 42 {
		t.Errorf("rollback requests = %v, want [0 42]", got)
	}
	for _, a := range kc.Actions() {
		if a.GetSubresource() == "rollback" && a.(clienttesting.CreateAction).GetObject() == nil {
			t.Errorf("empty rollback body")
		}
	}
}

func TestUndoDaemonSetV1alpha1AndServerDryRun(t *testing.T) {
	kc := kruisefake.NewClientset()
	var got []int64
	rollbackServer(kc, &got)
	tg := targetOf(t, workload("v1alpha1", "DaemonSet", map[string]interface{}{}, nil), "daemonsets")
	var out bytes.Buffer
	if err := undo(context.Background(), &Clients{Kruise: kc}, tg, 1, cmdutil.DryRunServer, namePrinter(t, "rolled back"), &out); err != nil {
		t.Fatal(err)
	}
	acts := kc.Actions()
	if len(acts) != 1 || acts[0].GetResource().Version != "v1alpha1" || acts[0].GetResource().Resource != "daemonsets" {
		t.Fatalf("actions = %v, want one v1alpha1 daemonsets rollback", acts)
	}
	if dr := acts[0].(clienttesting.CreateActionImpl).CreateOptions.DryRun; len(dr) != 1 {
		t.Errorf("server dry run not requested: %v", dr)
	}
}

func TestUndoClientDryRunWritesNothing(t *testing.T) {
	kube := kubefake.NewClientset(revision(t, 1, "nginx:1.25", "uid-w"), revision(t, 2, "nginx:1.26", "uid-w"))
	kc := kruisefake.NewClientset()
	tg := targetOf(t, workload("v1beta1", "CloneSet", map[string]interface{}{}, nil), "clonesets")
	var out bytes.Buffer
	p, err := cmdutil.PrintFlagsWithDryRunStrategy(newYAMLFlags(), cmdutil.DryRunClient).ToPrinter()
	if err != nil {
		t.Fatal(err)
	}
	if err := undo(context.Background(), &Clients{Kube: kube, Kruise: kc}, tg, 0, cmdutil.DryRunClient, p, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "image: nginx:1.25") {
		t.Errorf("client dry run should show the previous template:\n%s", out.String())
	}
	if len(kc.Actions()) != 0 {
		t.Errorf("client dry run wrote: %v", kc.Actions())
	}
	if err := undo(context.Background(), &Clients{Kube: kube, Kruise: kc}, tg, 7, cmdutil.DryRunClient, p, &out); err == nil {
		t.Error("client dry run to a missing revision succeeded")
	}
}
