package localstack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// ControllerLeader returns the kruise-controller replica that leads: only the leader runs
// the controllers, so only its /readyz answers 200.
func (s *Stack) ControllerLeader(ctx context.Context) (string, error) {
	c := &http.Client{}
	for _, name := range s.KruiseControllers() {
		port := s.Ports.componentPorts(name)[0]
		if err := GetOK(ctx, c, fmt.Sprintf("http://127.0.0.1:%d/readyz", port)); err == nil {
			return name, nil
		}
	}
	return "", fmt.Errorf("no kruise-controller replica is ready (leading)")
}

// EtcdLeader returns the HA etcd member that leads the cluster, asking each running
// member for its status (/v3/maintenance/status of etcd's JSON gateway).
func (s *Stack) EtcdLeader(ctx context.Context) (string, error) {
	c, err := s.tlsClient("etcd-ca.crt", "etcd-client")
	if err != nil {
		return "", err
	}
	var lastErr error
	for i, name := range s.EtcdMembers() {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.etcdMemberURL(i, false)+"/v3/maintenance/status", bytes.NewReader([]byte("{}")))
		if err != nil {
			return "", err
		}
		resp, err := c.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		var st struct {
			Header struct {
				MemberID string `json:"member_id"`
			} `json:"header"`
			Leader string `json:"leader"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			lastErr = err
			continue
		}
		if st.Leader != "" && st.Leader == st.Header.MemberID {
			return name, nil
		}
	}
	return "", fmt.Errorf("no etcd member says it leads (last error: %v)", lastErr)
}
