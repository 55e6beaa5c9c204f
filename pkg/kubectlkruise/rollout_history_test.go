package kubectlkruise

import (
	"bytes"
	"context"
	"strings"
	"testing"

	kubefake "k8s.io/client-go/kubernetes/fake"
)

func TestHistoryListsOwnedRevisions(t *testing.T) {
	r1, r2 := revision(t, 1, "nginx:1.25", "uid-w"), revision(t, 2, "nginx:1.26", "uid-w")
	r2.Annotations = map[string]string{changeCauseAnnotation: "kubectl set image"}
	stranger := revision(t, 9, "nginx:old", "uid-namesake") // a deleted namesake's
	kube := kubefake.NewClientset(r2, r1, stranger)
	tg := targetOf(t, workload("v1beta1", "CloneSet", map[string]interface{}{}, nil), "clonesets")

	var out bytes.Buffer
	if err := history(context.Background(), kube, tg, 0, nil, &out); err != nil {
		t.Fatal(err)
	}
	want := "clonesets.apps.kruise.io/w\nREVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image\n\n"
	if out.String() != want {
		t.Errorf("history =\n%q\nwant\n%q", out.String(), want)
	}

	out.Reset()
	if err := history(context.Background(), kube, tg, 1, nil, &out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.HasPrefix(s, "clonesets.apps.kruise.io/w with revision #1\nPod Template:\n") || !strings.Contains(s, "nginx:1.25") {
		t.Errorf("revision 1 details =\n%s", s)
	} else if n := strings.Count(s, "Pod Template:"); n != 1 {
		t.Errorf("revision 1 details print the Pod Template header %d times, want once (as kubectl rollout history):\n%s", n, s)
	}

	err := history(context.Background(), kube, tg, 9, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "available revisions: 1, 2") {
		t.Errorf("revision 9 (not owned): err = %v", err)
	}
}

func TestHistoryPrintsRevisionObjectsWithOutputFlag(t *testing.T) {
	kube := kubefake.NewClientset(revision(t, 1, "nginx:1.25", "uid-w"))
	tg := targetOf(t, workload("v1beta1", "CloneSet", map[string]interface{}{}, nil), "clonesets")
	var out bytes.Buffer
	if err := history(context.Background(), kube, tg, 1, namePrinter(t, ""), &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "controllerrevision.apps/w-nginx:1.25\n" {
		t.Errorf("-o name = %q", got)
	}
}
