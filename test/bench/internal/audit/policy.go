// Package audit counts the writes every client makes to kube-apiserver, from its audit
// log: the "writes per pod" figure of DESIGN's performance model, by client, verb and
// resource. kube-apiserver's own metrics count writes too but cannot say who made them.
package audit

import (
	"fmt"
	"os"
	"path/filepath"
)

// policy logs one Metadata-level event per finished write and nothing else: no bodies,
// no reads, so the log costs kube-apiserver little and stays small.
const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived", "ResponseStarted"]
rules:
- level: Metadata
  verbs: ["create", "update", "patch", "delete", "deletecollection"]
- level: None
`

// Setup writes the policy into dir and returns the kube-apiserver flags that enable the
// audit log at logPath (blocking mode: no event is ever dropped from the counts).
func Setup(dir string) (flags, logPath string, err error) {
	policyPath := filepath.Join(dir, "audit-policy.yaml")
	if err := os.WriteFile(policyPath, []byte(policy), 0o644); err != nil {
		return "", "", fmt.Errorf("writing the audit policy: %w", err)
	}
	logPath = filepath.Join(dir, "audit.log")
	flags = fmt.Sprintf("--audit-policy-file=%s --audit-log-path=%s --audit-log-format=json --audit-log-mode=blocking --audit-log-maxsize=0",
		policyPath, logPath)
	return flags, logPath, nil
}
