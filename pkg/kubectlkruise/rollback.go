package kubectlkruise

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// postRollback POSTs a <Kind>Rollback to the workload's rollback subresource in the
// plugin's WorkloadVersion: the server picks and restores the revision, so
// this client never rewrites a template itself. Every Kruise workload's rollback
// request has the same shape ({name, toRevision}) and answers the workload, so one
// untyped request serves every kind and version.
func postRollback(ctx context.Context, c *Clients, t *target, toRevision int64, opts metav1.CreateOptions) (*unstructured.Unstructured, error) {
	client, err := c.REST(t.GVR.GroupVersion())
	if err != nil {
		return nil, fmt.Errorf("client for %s: %w", t.GVR.GroupVersion(), err)
	}
	body, err := json.Marshal(map[string]interface{}{
		"apiVersion": t.GVR.GroupVersion().String(),
		"kind":       t.Object.GetKind() + "Rollback",
		"name":       t.name(),
		"toRevision": toRevision,
	})
	if err != nil {
		return nil, err
	}
	req := client.Post().Namespace(t.namespace()).Resource(t.GVR.Resource).Name(t.name()).SubResource("rollback").Body(body)
	for _, d := range opts.DryRun {
		req = req.Param("dryRun", d)
	}
	if opts.FieldManager != "" {
		req = req.Param("fieldManager", opts.FieldManager)
	}
	res := req.Do(ctx)
	// Error (not Raw's error) decodes the server's Status, so kubectl prints its
	// message ("Error from server (BadRequest): ... available revisions: 1, 2").
	if err := res.Error(); err != nil {
		return nil, err
	}
	raw, err := res.Raw()
	if err != nil {
		return nil, err
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("rollback of %s answered: %w", t.ref(), err)
	}
	return obj, nil
}
