package kubectlkruise

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"

	"github.com/kruise-native/kruise-native/pkg/kubectlkruise/crdmove"
)

// NewCmdMigrateFromCRDs is `kubectl kruise migrate-from-crds`.
func NewCmdMigrateFromCRDs(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &crdmove.Options{Out: streams.Out, Groups: []string{"apps.kruise.io", "policy.kruise.io"}}
	var caFile, service string
	var port int32
	var rollback bool
	cmd := &cobra.Command{
		Use:   "migrate-from-crds --kruise-apiserver=URL --ca-bundle=FILE [--dry-run]",
		Short: "Move a cluster from OpenKruise's CRDs to Kruise Native without restarting a pod",
		Long: "Move every object of the Kruise CRDs (apps.kruise.io, policy.kruise.io) into\n" +
			"kruise-apiserver with its UID, creationTimestamp, generation, finalizers,\n" +
			"ownerReferences and status, then switch the APIServices from the CRDs to\n" +
			"kruise-apiserver and delete the CRDs, with no moment at which the garbage\n" +
			"collector finds a pod's owner missing. Stop OpenKruise's controllers first;\n" +
			"start kruise-controller after. Needs cluster-admin (the verb \"import\" on the\n" +
			"Kruise resources, impersonation for the freeze probe).\n" +
			"--dry-run prints the plan and has kruise-apiserver validate every object, changing\n" +
			"nothing. A failure before the switch is undone; after it, run again to go on, or\n" +
			"--rollback (while the CRDs exist: --keep-crds keeps them) to serve from the CRDs.",
		Example: "  kubectl -n kruise-system port-forward svc/kruise-apiserver 8443:443 &\n" +
			"  kubectl kruise migrate-from-crds --kruise-apiserver=https://127.0.0.1:8443 --ca-bundle=ca.crt --dry-run\n" +
			"  kubectl kruise migrate-from-crds --kruise-apiserver=https://127.0.0.1:8443 --ca-bundle=ca.crt",
		Run: func(cmd *cobra.Command, args []string) {
			ns, name, ok := strings.Cut(service, "/")
			if !ok {
				cmdutil.CheckErr(fmt.Errorf("--service: want NAMESPACE/NAME, got %q", service))
			}
			o.ServiceNamespace, o.ServiceName, o.ServicePort = ns, name, port
			if caFile != "" {
				ca, err := os.ReadFile(caFile)
				cmdutil.CheckErr(err)
				o.CABundle = ca
			}
			if o.TLSServerName == "" {
				o.TLSServerName = name + "." + ns + ".svc"
			}
			cmdutil.CheckErr(o.Validate())
			c, err := crdMoveClients(f, o)
			cmdutil.CheckErr(err)
			if rollback {
				cmdutil.CheckErr(crdmove.Rollback(cmd.Context(), c, o))
				return
			}
			cmdutil.CheckErr(crdmove.Run(cmd.Context(), c, o))
		},
	}
	cmd.Flags().StringVar(&o.KruiseAPIServer, "kruise-apiserver", "", "kruise-apiserver's URL as this machine reaches it (e.g. through kubectl port-forward).")
	cmd.Flags().StringVar(&caFile, "ca-bundle", "", "The CA that signed kruise-apiserver's serving certificate (PEM); it goes into the APIServices.")
	cmd.Flags().StringVar(&o.TLSServerName, "tls-server-name", "", "The name kruise-apiserver's certificate is for (default: SERVICE.NAMESPACE.svc).")
	cmd.Flags().StringVar(&service, "service", "kruise-system/kruise-apiserver", "The Service the APIServices point at, NAMESPACE/NAME.")
	cmd.Flags().Int32Var(&port, "service-port", 443, "The Service's port.")
	cmd.Flags().BoolVar(&o.KeepCRDs, "keep-crds", false, "Stop after unserving the CRDs (their objects stay; --rollback stays possible). Run again without it to delete them.")
	cmd.Flags().DurationVar(&o.DrainWait, "crd-drain-wait", 125*time.Second, "How long apiextensions-apiserver may take to tear down a CRD's storage after its spec changes: twice kube-apiserver's --request-timeout (60s by default), plus a margin.")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", 5*time.Minute, "Bound of each wait (APIServices Available, CRDs deleted).")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "Print the plan, have kruise-apiserver validate every object (server-side dry run), change nothing.")
	cmd.Flags().BoolVar(&rollback, "rollback", false, "After the switch, while the CRDs exist: serve the Kruise kinds from the CRDs again.")
	return cmd
}

// crdMoveClients: kube-apiserver's clients from kubectl's factory, and kruise-apiserver
// reached directly with the same credentials (it authenticates them by delegation).
func crdMoveClients(f cmdutil.Factory, o *crdmove.Options) (*crdmove.Clients, error) {
	cfg, err := f.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("client config: %w", err)
	}
	return crdmove.NewClients(cfg, o)
}
