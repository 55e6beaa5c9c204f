package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kruise-native/kruise-native/pkg/installhooks"
)

// newInstallHookCommand is `kruise-controller install-hook`, what the Helm chart's
// hook Jobs run (pkg/installhooks). It lives in this binary so that the chart needs
// no image beyond its own.
func newInstallHookCommand() *cobra.Command {
	var kubeconfig, manifests string
	o := installhooks.RegisterOptions{Out: os.Stdout}
	cmd := &cobra.Command{
		Use:   "install-hook",
		Short: "Steps of the Helm chart's install and uninstall (hook Jobs)",
	}
	cmd.PersistentFlags().StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig file; in a pod, the ServiceAccount")
	cmd.PersistentFlags().StringVar(&manifests, "apiservices", "/etc/kruise-native/apiservices.yaml", "file of the APIService objects to register or remove")

	clients := func() (kubernetes.Interface, dynamic.Interface, error) {
		cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			return nil, nil, fmt.Errorf("client configuration: %w", err)
		}
		kube, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return nil, nil, err
		}
		dyn, err := dynamic.NewForConfig(cfg)
		return kube, dyn, err
	}

	register := &cobra.Command{
		Use:   "register-apiservices",
		Short: "Register the APIServices once kruise-apiserver is Ready; remove them again if they do not become Available",
		RunE: func(cmd *cobra.Command, _ []string) error {
			kube, dyn, err := clients()
			if err != nil {
				return err
			}
			o.Manifests = manifests
			return installhooks.Register(cmd.Context(), kube, dyn, o)
		},
	}
	register.Flags().StringVar(&o.Namespace, "namespace", "kruise-system", "kruise-apiserver's namespace")
	register.Flags().StringVar(&o.Service, "service", "kruise-apiserver", "kruise-apiserver's Service")
	register.Flags().StringVar(&o.CASecret, "ca-secret", "kruise-apiserver-cert", "Secret (in --namespace) whose ca.crt becomes the APIServices' caBundle")
	register.Flags().DurationVar(&o.Timeout, "timeout", 4*time.Minute, "how long to wait for a Ready endpoint, and then for Available")
	register.Flags().DurationVar(&o.Interval, "interval", 2*time.Second, "poll interval")
	var whenCRDsServe string
	register.Flags().StringVar(&whenCRDsServe, "when-crds-serve", "fail", "when CRDs (OpenKruise's) serve a Kruise group: fail, or leave (register nothing and succeed, for `kubectl kruise migrate-from-crds`)")
	register.PreRunE = func(*cobra.Command, []string) error {
		switch whenCRDsServe {
		case "fail":
		case "leave":
			o.LeaveCRDServed = true
		default:
			return fmt.Errorf("--when-crds-serve=%q: want fail or leave", whenCRDsServe)
		}
		return nil
	}

	preDelete := &cobra.Command{
		Use:   "pre-delete",
		Short: "Refuse while Kruise workloads or ResourceDistributions exist; otherwise remove the APIServices",
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, dyn, err := clients()
			if err != nil {
				return err
			}
			return installhooks.PreDelete(cmd.Context(), dyn, manifests, os.Stdout)
		},
	}
	cmd.AddCommand(register, preDelete)
	return cmd
}
