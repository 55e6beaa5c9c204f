package podunavailablebudget

import (
	"context"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/workloadtarget"
)

// target is what a budget needs of the workload its targetRef names.
type target = workloadtarget.Target

// targetReader reads a budget's target.
type targetReader interface {
	Get(ctx context.Context, namespace string, ref *policyv1beta1.TargetReference) (*target, error)
}

// clientTargets reads targets with the typed clients (workloadtarget.Client).
type clientTargets struct{ client workloadtarget.Client }

func (t clientTargets) Get(ctx context.Context, ns string, ref *policyv1beta1.TargetReference) (*target, error) {
	return t.client.Get(ctx, ns, ref.APIVersion, ref.Kind, ref.Name)
}
