package kubectlkruise

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	v1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/discovery"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/version"
)

// Version is what `kubectl kruise version` reports.
type Version struct {
	ClientVersion string `json:"clientVersion"`
	// ServerVersion is the Kubernetes API server's gitVersion.
	ServerVersion string `json:"serverVersion,omitempty"`
	// KruiseAPIs are the served *.kruise.io groups with their versions, preferred first.
	KruiseAPIs []string `json:"kruiseAPIs,omitempty"`
}

// NewCmdVersion is `kubectl kruise version [--client] [-o json|yaml]`, shaped like
// `kubectl version`.
func NewCmdVersion(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var clientOnly bool
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the plugin's version and the Kruise APIs the server serves",
		Run: func(cmd *cobra.Command, args []string) {
			if output != "" && output != "json" && output != "yaml" {
				cmdutil.CheckErr(fmt.Errorf("--output must be 'yaml' or 'json'"))
			}
			v := Version{ClientVersion: clientVersion()}
			if !clientOnly {
				dc, err := f.ToDiscoveryClient()
				cmdutil.CheckErr(err)
				cmdutil.CheckErr(serverVersion(dc, &v))
			}
			cmdutil.CheckErr(printVersion(streams.Out, v, output))
		},
	}
	cmd.Flags().BoolVar(&clientOnly, "client", false, "If true, shows client version only (no server required).")
	cmd.Flags().StringVarP(&output, "output", "o", "", "One of 'yaml' or 'json'.")
	return cmd
}

// clientVersion is the plugin's build: the release (make images, VERSION) or the
// go command's stamp of the commit (pkg/version).
func clientVersion() string {
	return version.Get()
}

func serverVersion(dc discovery.DiscoveryInterface, v *Version) error {
	sv, err := dc.ServerVersion()
	if err != nil {
		return err
	}
	v.ServerVersion = sv.GitVersion
	groups, err := dc.ServerGroups()
	if err != nil {
		return err
	}
	v.KruiseAPIs = kruiseAPIs(groups)
	return nil
}

// kruiseAPIs lists the *.kruise.io groups as "group/version", the preferred version
// of each group first.
func kruiseAPIs(groups *v1.APIGroupList) []string {
	var out []string
	for _, g := range groups.Groups {
		if !strings.HasSuffix(g.Name, ".kruise.io") {
			continue
		}
		out = append(out, g.PreferredVersion.GroupVersion)
		for _, gv := range g.Versions {
			if gv.GroupVersion != g.PreferredVersion.GroupVersion {
				out = append(out, gv.GroupVersion)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return strings.SplitN(out[i], "/", 2)[0] < strings.SplitN(out[j], "/", 2)[0]
	})
	return out
}

func printVersion(w io.Writer, v Version, output string) error {
	switch output {
	case "json":
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(data))
		return err
	case "yaml":
		data, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	fmt.Fprintf(w, "Client Version: %s\n", v.ClientVersion)
	if v.ServerVersion != "" {
		fmt.Fprintf(w, "Server Version: %s\n", v.ServerVersion)
		apis := "none (is kruise-apiserver registered?)"
		if len(v.KruiseAPIs) > 0 {
			apis = strings.Join(v.KruiseAPIs, ", ")
		}
		fmt.Fprintf(w, "Kruise APIs: %s\n", apis)
	}
	return nil
}
