package importmeta

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/storage"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// recorder is the storage below: it keeps what it was asked to store.
type recorder struct {
	storage.Interface
	stored runtime.Object
}

func (r *recorder) Create(_ context.Context, _ string, obj, _ runtime.Object, _ uint64) error {
	r.stored = obj
	return nil
}

// allowImport allows the verb import on clonesets to the user "migrator" only.
type allowImport struct{ asked []authorizer.Attributes }

func (a *allowImport) Authorize(_ context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	a.asked = append(a.asked, attrs)
	if attrs.GetUser().GetName() == "migrator" && attrs.GetVerb() == Verb && attrs.GetResource() == "clonesets" &&
		attrs.GetAPIGroup() == "apps.kruise.io" && attrs.GetNamespace() == "ns" {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionNoOpinion, "no rule", nil
}

func TestCreate(t *testing.T) {
	created := metav1.NewTime(time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC))
	preserved, err := Preserved{UID: "0f0e-orig", CreationTimestamp: created, Generation: 7}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	info := &request.RequestInfo{IsResourceRequest: true, Verb: "create", APIGroup: "apps.kruise.io", APIVersion: "v1alpha1", Resource: "clonesets", Namespace: "ns"}
	cases := []struct {
		name        string
		annotations map[string]string
		user        string
		noInfo      bool
		wantErr     func(error) bool
		wantUID     string
		wantGen     int64
	}{
		{name: "no annotation: as the registry set it", user: "anyone", wantUID: "new-uid", wantGen: 1},
		{name: "import allowed", annotations: map[string]string{Annotation: preserved, "keep": "me"}, user: "migrator", wantUID: "0f0e-orig", wantGen: 7},
		{name: "import denied", annotations: map[string]string{Annotation: preserved}, user: "editor", wantErr: apierrors.IsForbidden},
		{name: "no request info", annotations: map[string]string{Annotation: preserved}, user: "migrator", noInfo: true, wantErr: apierrors.IsForbidden},
		{name: "bad value", annotations: map[string]string{Annotation: `{"uid":""}`}, user: "migrator", wantErr: apierrors.IsBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			authz := &allowImport{}
			s := Storage{Interface: rec, Authorizer: authz}
			obj := &appsv1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{
				Name: "cs", Namespace: "ns", UID: "new-uid", Generation: 1,
				CreationTimestamp: metav1.Now(), Annotations: tc.annotations,
			}}
			ctx := request.WithUser(context.Background(), &user.DefaultInfo{Name: tc.user})
			if !tc.noInfo {
				ctx = request.WithRequestInfo(ctx, info)
			}
			err := s.Create(ctx, "/clonesets/ns/cs", obj, &appsv1alpha1.CloneSet{}, 0)
			if tc.wantErr != nil {
				if !tc.wantErr(err) {
					t.Fatalf("err = %v", err)
				}
				if rec.stored != nil {
					t.Fatal("stored despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := rec.stored.(*appsv1alpha1.CloneSet)
			if string(got.UID) != tc.wantUID || got.Generation != tc.wantGen {
				t.Errorf("stored uid %s generation %d, want %s %d", got.UID, got.Generation, tc.wantUID, tc.wantGen)
			}
			if _, ok := got.Annotations[Annotation]; ok {
				t.Error("the import annotation was stored")
			}
			if tc.wantUID == "0f0e-orig" {
				if !got.CreationTimestamp.Equal(&created) {
					t.Errorf("creationTimestamp %v, want %v", got.CreationTimestamp, created)
				}
				if got.Annotations["keep"] != "me" {
					t.Error("other annotations lost")
				}
				if len(authz.asked) != 1 || authz.asked[0].GetName() != "cs" {
					t.Errorf("authorizer asked %v", authz.asked)
				}
			} else if len(authz.asked) != 0 {
				t.Errorf("authorizer asked without the annotation: %v", authz.asked)
			}
		})
	}
}
