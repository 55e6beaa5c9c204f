package kubectlkruise

import (
	"io"
	"net/http"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/rest/fake"
	"k8s.io/kubectl/pkg/cmd/set"
	cmdtesting "k8s.io/kubectl/pkg/cmd/testing"
	"k8s.io/kubectl/pkg/scheme"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// fakeWorkloadServer answers GET and PATCH of one v1beta1 workload at path and records
// every PATCH body.
func fakeWorkloadServer(t *testing.T, path string, obj runtime.Object, patches *[]string) *fake.RESTClient {
	body := func() io.ReadCloser {
		return io.NopCloser(strings.NewReader(runtime.EncodeOrDie(scheme.Codecs.LegacyCodec(v1beta1.SchemeGroupVersion), obj)))
	}
	return &fake.RESTClient{
		GroupVersion:         v1beta1.SchemeGroupVersion,
		NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
		Client: fake.CreateHTTPClient(func(req *http.Request) (*http.Response, error) {
			switch {
			case req.URL.Path == path && req.Method == http.MethodGet:
			case req.URL.Path == path && req.Method == http.MethodPatch:
				data, _ := io.ReadAll(req.Body)
				*patches = append(*patches, req.Header.Get("Content-Type")+" "+string(data))
			default:
				t.Errorf("unexpected request %s %s", req.Method, req.URL.Path)
			}
			return &http.Response{StatusCode: http.StatusOK, Header: cmdtesting.DefaultHeader(), Body: body()}, nil
		}),
	}
}

func twoContainerCloneSet() *v1beta1.CloneSet {
	return &v1beta1.CloneSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1beta1.SchemeGroupVersion.String(), Kind: "CloneSet"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "test"},
		Spec: v1beta1.CloneSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "main", Image: "nginx:1.25"}, {Name: "sidecar", Image: "busybox"},
		}}}},
	}
}

// kubectl's set image, run by the plugin on a CloneSet: one strategic merge patch
// naming only the changed container; a container that does not exist is kubectl's
// error and no request is written.
func TestSetImageOnCloneSet(t *testing.T) {
	installPolymorphicHelpers()
	for _, tc := range []struct {
		name        string
		args        []string
		wantErr     string
		wantPatches int
	}{
		{name: "existing container", args: []string{"clonesets.apps.kruise.io/web", "main=nginx:1.26"}, wantPatches: 1},
		{name: "missing container", args: []string{"clonesets.apps.kruise.io/web", "nosuch=nginx:1.26"}, wantErr: `unable to find container named "nosuch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tf := cmdtesting.NewTestFactory().WithNamespace("test")
			defer tf.Cleanup()
			var patches []string
			tf.Client = fakeWorkloadServer(t, "/namespaces/test/clonesets/web", twoContainerCloneSet(), &patches)
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			cmd := set.NewCmdImage(tf, streams)
			o := &set.SetImageOptions{PrintFlags: genericclioptions.NewPrintFlags("image updated").WithTypeSetter(scheme.Scheme), IOStreams: streams}
			err := o.Complete(tf, cmd, tc.args)
			if err == nil {
				err = o.Validate()
			}
			if err == nil {
				err = o.Run()
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if len(patches) != tc.wantPatches {
				t.Fatalf("patches = %q, want %d", patches, tc.wantPatches)
			}
			if tc.wantPatches == 0 {
				return
			}
			p := patches[0]
			if !strings.HasPrefix(p, "application/strategic-merge-patch+json ") || !strings.Contains(p, `{"image":"nginx:1.26","name":"main"}`) || strings.Contains(p, `"image":"nginx:1.26","name":"sidecar"`) {
				t.Errorf("patch = %s, want a strategic merge patch of container main only", p)
			}
			if got := out.String(); got != "cloneset.apps.kruise.io/web image updated\n" {
				t.Errorf("output = %q", got)
			}
		})
	}
}
