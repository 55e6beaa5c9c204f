package pullsecrets

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/nodeidentity"
)

// authorizeCaller lets a node daemon read the pull secrets of its own node's NodeImage
// only, the one whose name is its node's. Any other caller passed RBAC for
// nodeimages/pullsecrets, which is all it needs.
func authorizeCaller(ctx context.Context, nodeImage string) error {
	u, _ := genericapirequest.UserFrom(ctx)
	node, isDaemon := nodeidentity.NodeOf(u)
	switch {
	case !isDaemon:
		return nil
	case node == "":
		return apierrors.NewForbidden(apps.Resource("nodeimages/pullsecrets"), nodeImage,
			fmt.Errorf("node daemon %s has no node name in its credentials: use a service account token bound to the Node object", u.GetName()))
	case node != nodeImage:
		return apierrors.NewForbidden(apps.Resource("nodeimages/pullsecrets"), nodeImage,
			fmt.Errorf("the node daemon of %s may only read the pull secrets of NodeImage %s", node, node))
	}
	return nil
}
