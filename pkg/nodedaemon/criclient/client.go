// Package criclient connects the node daemon to a container runtime over CRI v1 gRPC.
//
// The daemon needs the raw generated clients (imagepuller takes an ImageServiceClient,
// container recreation calls ExecSync/StopContainer/ContainerStatus), not the kubelet's
// wrapped RuntimeService, so this package only dials and checks the connection.
package criclient

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// maxMsgSize bounds a CRI answer: a node with thousands of images or containers answers
// List calls with more than gRPC's default 4 MiB (the kubelet uses 16 MiB too).
const maxMsgSize = 16 << 20

// Client is a connection to one runtime endpoint.
type Client struct {
	Endpoint string
	Runtime  runtimeapi.RuntimeServiceClient
	Images   runtimeapi.ImageServiceClient
	conn     *grpc.ClientConn
}

// New returns a client for endpoint ("unix:///run/containerd/containerd.sock"; a bare
// path is taken as a unix socket). It does not connect yet: gRPC dials lazily and
// reconnects by itself, so a runtime that restarts does not need a new Client.
func New(endpoint string) (*Client, error) {
	target, err := target(endpoint)
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMsgSize), grpc.MaxCallSendMsgSize(maxMsgSize)))
	if err != nil {
		return nil, fmt.Errorf("CRI endpoint %s: %w", endpoint, err)
	}
	return &Client{
		Endpoint: endpoint,
		Runtime:  runtimeapi.NewRuntimeServiceClient(conn),
		Images:   runtimeapi.NewImageServiceClient(conn),
		conn:     conn,
	}, nil
}

// target turns a CRI endpoint into a gRPC target. Only unix sockets are accepted: the
// runtime API has no authentication, so it must never be reached over the network.
func target(endpoint string) (string, error) {
	switch {
	case strings.HasPrefix(endpoint, "unix://"):
		if strings.TrimPrefix(endpoint, "unix://") == "" {
			return "", fmt.Errorf("CRI endpoint %q has no socket path", endpoint)
		}
		return endpoint, nil
	case strings.HasPrefix(endpoint, "/"):
		return "unix://" + endpoint, nil
	case endpoint == "":
		return "", fmt.Errorf("empty CRI endpoint")
	}
	return "", fmt.Errorf("CRI endpoint %q: only unix sockets are supported (unix:///path/to/socket)", endpoint)
}

// Version asks the runtime for its name and version, within timeout: the health check.
func (c *Client) Version(ctx context.Context, timeout time.Duration) (*runtimeapi.VersionResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v, err := c.Runtime.Version(ctx, &runtimeapi.VersionRequest{})
	if err != nil {
		return nil, fmt.Errorf("CRI runtime at %s: %w", c.Endpoint, err)
	}
	return v, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// SplitContainerID returns the runtime's ID of a pod status containerID
// ("containerd://abc" → "abc"). An ID without a scheme is returned as is.
func SplitContainerID(containerID string) string {
	if i := strings.Index(containerID, "://"); i >= 0 {
		return containerID[i+3:]
	}
	return containerID
}
