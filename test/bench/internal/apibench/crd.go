package apibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"
)

// CRDGroup serves the CRD copy of our kinds next to apps.kruise.io.
const CRDGroup = "bench.kruise.io"

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// InstallCRD generates the CloneSet CRD from our own v1alpha1 types with controller-gen
// (hack/tools), moves it to CRDGroup, gives it the status and scale subresources
// OpenKruise's CRD has, creates it and waits until it is Established.
func InstallCRD(ctx context.Context, root, workDir string, dyn dynamic.Interface) error {
	logger := klog.FromContext(ctx)
	out := filepath.Join(workDir, "crd")
	// generateEmbeddedObjectMeta: without it the schema of spec.template.metadata is
	// empty and the CRD silently prunes the template's labels (a client that does not
	// ask for strict field validation gets only a warning), storing smaller, broken
	// objects than kruise-apiserver does.
	cmd := exec.CommandContext(ctx, filepath.Join(root, "_output", "bin", "controller-gen"),
		"crd:generateEmbeddedObjectMeta=true", "paths=./pkg/apis/apps/v1alpha1", "output:crd:dir="+out)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("controller-gen (run `make tools`): %w: %s", err, b)
	}
	raw, err := os.ReadFile(filepath.Join(out, "apps.kruise.io_clonesets.yaml"))
	if err != nil {
		return fmt.Errorf("reading the generated CRD: %w", err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal(raw, &obj); err != nil {
		return fmt.Errorf("parsing the generated CRD: %w", err)
	}
	crd := &unstructured.Unstructured{Object: obj}
	crd.SetName("clonesets." + CRDGroup)
	if err := unstructured.SetNestedField(crd.Object, CRDGroup, "spec", "group"); err != nil {
		return fmt.Errorf("setting the CRD group: %w", err)
	}
	versions, _, err := unstructured.NestedSlice(crd.Object, "spec", "versions")
	if err != nil || len(versions) != 1 {
		return fmt.Errorf("generated CRD: want one version, got %d (%v)", len(versions), err)
	}
	v := versions[0].(map[string]any)
	v["subresources"] = map[string]any{
		"status": map[string]any{},
		"scale": map[string]any{
			"specReplicasPath":   ".spec.replicas",
			"statusReplicasPath": ".status.replicas",
			"labelSelectorPath":  ".status.labelSelector",
		},
	}
	if err := unstructured.SetNestedSlice(crd.Object, versions, "spec", "versions"); err != nil {
		return fmt.Errorf("setting the CRD subresources: %w", err)
	}
	if _, err := dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating CRD %s: %w", crd.GetName(), err)
	}
	logger.Info("CRD created from our types", "name", crd.GetName(), "schemaBytes", len(raw))
	err = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := dyn.Resource(crdGVR).Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
		for _, c := range conds {
			m, _ := c.(map[string]any)
			if m["type"] == "Established" && m["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for CRD %s to be Established: %w", crd.GetName(), err)
	}
	return nil
}
