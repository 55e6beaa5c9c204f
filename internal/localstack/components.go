package localstack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

func (s *Stack) startEtcd(ctx context.Context) error {
	dir := filepath.Join(s.LocalDir, "etcd")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	client := fmt.Sprintf("http://127.0.0.1:%d", s.Ports.Etcd)
	peer := fmt.Sprintf("http://127.0.0.1:%d", s.Ports.EtcdPeer)
	if err := s.startProcess(Etcd, s.bin("etcd"), nil,
		"--name=local",
		"--data-dir="+dir,
		"--listen-client-urls="+client,
		"--advertise-client-urls="+client,
		"--listen-peer-urls="+peer,
		"--initial-advertise-peer-urls="+peer,
		"--initial-cluster=local="+peer,
		"--quota-backend-bytes="+strconv.Itoa(8*1024*1024*1024),
		"--unsafe-no-fsync",
		"--log-level=warn",
	); err != nil {
		return err
	}
	check, _ := s.httpCheck(client+"/readyz", "", "")
	return s.waitReady(ctx, Etcd, "/readyz", check)
}

func (s *Stack) startKubeAPIServer(ctx context.Context) error {
	if err := s.ensureAdmissionConfig(); err != nil {
		return err
	}
	args := []string{
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(s.Ports.KubeAPIServer),
		fmt.Sprintf("--etcd-servers=http://127.0.0.1:%d", s.Ports.Etcd),
		"--tls-cert-file=" + s.PKI("apiserver.crt"),
		"--tls-private-key-file=" + s.PKI("apiserver.key"),
		"--client-ca-file=" + s.PKI("ca.crt"),
		"--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction",
		"--allow-privileged=true",
		"--service-cluster-ip-range=" + serviceCIDR,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + s.PKI("sa.pub"),
		"--service-account-signing-key-file=" + s.PKI("sa.key"),
		"--endpoint-reconciler-type=none",
		"--requestheader-client-ca-file=" + s.PKI("front-proxy-ca.crt"),
		"--requestheader-allowed-names=front-proxy-client",
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file=" + s.PKI("front-proxy-client.crt"),
		"--proxy-client-key-file=" + s.PKI("front-proxy-client.key"),
		"--admission-control-config-file=" + filepath.Join(s.LocalDir, "admission-config.yaml"),
		"--profiling=false",
	}
	if err := s.startProcess(KubeAPIServer, s.bin(KubeAPIServer), nil, append(args, s.KubeAPIServerArgs...)...); err != nil {
		return err
	}
	check, err := s.httpCheck(fmt.Sprintf("https://127.0.0.1:%d/readyz", s.Ports.KubeAPIServer), "ca.crt", "admin")
	if err != nil {
		return err
	}
	return s.waitReady(ctx, KubeAPIServer, "/readyz", check)
}

func (s *Stack) startKubeControllerManager(ctx context.Context) error {
	kc := s.ComponentKubeconfig(KubeControllerManager)
	args := []string{
		"--kubeconfig=" + kc,
		"--authentication-kubeconfig=" + kc,
		"--authorization-kubeconfig=" + kc,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(s.Ports.KubeControllerManager),
		"--tls-cert-file=" + s.PKI("kube-controller-manager-serving.crt"),
		"--tls-private-key-file=" + s.PKI("kube-controller-manager-serving.key"),
		"--client-ca-file=" + s.PKI("ca.crt"),
		"--requestheader-client-ca-file=" + s.PKI("front-proxy-ca.crt"),
		"--use-service-account-credentials=true",
		"--service-account-private-key-file=" + s.PKI("sa.key"),
		"--root-ca-file=" + s.PKI("ca.crt"),
		"--cluster-signing-cert-file=" + s.PKI("ca.crt"),
		"--cluster-signing-key-file=" + s.PKI("ca.key"),
		"--service-cluster-ip-range=" + serviceCIDR,
		"--cluster-name=kruise-native-local",
		"--leader-elect=false",
		"--profiling=false",
		// kwok renews node leases from one process; on a loaded 2-core machine a renewal
		// can come late, and kube's 50 s grace would mark nodes NotReady and their pods
		// unready for good (kwok does not bring a pod back to Ready).
		"--node-monitor-grace-period=5m",
	}
	if err := s.startProcess(KubeControllerManager, s.bin(KubeControllerManager), nil, append(args, s.KubeControllerManagerArgs...)...); err != nil {
		return err
	}
	check, err := s.httpCheck(fmt.Sprintf("https://127.0.0.1:%d/healthz", s.Ports.KubeControllerManager), "ca.crt", "")
	if err != nil {
		return err
	}
	return s.waitReady(ctx, KubeControllerManager, "/healthz", check)
}

func (s *Stack) startKubeScheduler(ctx context.Context) error {
	kc := s.ComponentKubeconfig(KubeScheduler)
	if err := s.startProcess(KubeScheduler, s.bin(KubeScheduler), nil,
		"--kubeconfig="+kc,
		"--authentication-kubeconfig="+kc,
		"--authorization-kubeconfig="+kc,
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(s.Ports.KubeScheduler),
		"--tls-cert-file="+s.PKI("kube-scheduler-serving.crt"),
		"--tls-private-key-file="+s.PKI("kube-scheduler-serving.key"),
		"--client-ca-file="+s.PKI("ca.crt"),
		"--leader-elect=false",
		"--profiling=false",
	); err != nil {
		return err
	}
	check, err := s.httpCheck(fmt.Sprintf("https://127.0.0.1:%d/readyz", s.Ports.KubeScheduler), "ca.crt", "")
	if err != nil {
		return err
	}
	return s.waitReady(ctx, KubeScheduler, "/readyz", check)
}

var jobRunTimeLine = regexp.MustCompile(`(?m)[0-9]+ # KWOK_JOB_RUN_TIME_MS$`)

func (s *Stack) startKwok(ctx context.Context) error {
	args := []string{
		"--kubeconfig=" + s.ComponentKubeconfig(Kwok),
		"--manage-all-nodes=false",
		"--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
		fmt.Sprintf("--server-address=127.0.0.1:%d", s.Ports.Kwok),
		"--cidr=" + podCIDR,
		"--node-ip=10.0.0.1",
		// Renew the nodes' Leases: without them kube-controller-manager marks every node
		// NotReady once its node-monitor grace period (5 min) runs out.
		"--node-lease-duration-seconds=40",
	}
	stages, err := filepath.Glob(filepath.Join(s.KwokStages, "*.yaml"))
	if err != nil {
		return err
	}
	if s.KwokJobRunTimeMS != "" {
		// the job Stages' default run time is the durationMilliseconds their
		// "# KWOK_JOB_RUN_TIME_MS" line holds: kwok gets copies with this one
		dir := filepath.Join(s.LocalDir, "kwok-stages")
		_ = os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for i, f := range stages {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			out := jobRunTimeLine.ReplaceAll(data, []byte(s.KwokJobRunTimeMS+" # KWOK_JOB_RUN_TIME_MS"))
			stages[i] = filepath.Join(dir, filepath.Base(f))
			if err := os.WriteFile(stages[i], out, 0o644); err != nil {
				return err
			}
		}
	}
	for _, f := range stages {
		args = append(args, "--config="+f)
	}
	if err := s.startProcess(Kwok, s.bin(Kwok), nil, append(args, s.KwokArgs...)...); err != nil {
		return err
	}
	check, _ := s.httpCheck(fmt.Sprintf("http://127.0.0.1:%d/healthz", s.Ports.Kwok), "", "")
	return s.waitReady(ctx, Kwok, "/healthz", check)
}
