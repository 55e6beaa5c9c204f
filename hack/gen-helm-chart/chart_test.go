package main

import (
	"strings"
	"testing"
)

// The committed chart is what the kustomize base generates: a change to
// artifacts/deploy without `make chart` fails here (and in hack/verify-chart.sh).
func TestChartUpToDate(t *testing.T) {
	files, err := chartFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := compare("../../artifacts/charts/kruise-native", files); err != nil {
		t.Fatal(err)
	}
}

// Every hole is found in the base, and its value is referenced by a template.
func TestEveryValueIsUsed(t *testing.T) {
	files, err := chartFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for name, text := range files {
		if strings.HasPrefix(name, "templates/") {
			all.WriteString(text)
		}
	}
	for _, h := range holes {
		if h.expr != "" {
			if !strings.Contains(all.String(), "{{ "+h.expr+" }}") {
				t.Errorf("expression %s is not used by any template", h.expr)
			}
			continue
		}
		if !strings.Contains(all.String(), ".Values."+h.value+" ") {
			t.Errorf("value %s is not used by any template", h.value)
		}
	}
	for _, h := range argHoles {
		if !strings.Contains(all.String(), ".Values."+h.value) {
			t.Errorf("value %s (%s) is not used by any template", h.value, h.flag)
		}
	}
	for _, want := range []string{"--feature-gates=", `eq .Values.etcd.mode "single"`, `eq .Values.etcd.mode "cluster"`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no template has %s", want)
		}
	}
}

// The chart's version and appVersion, and the default image tags of the chart and of
// the kustomize base, are VERSION's.
func TestVersionFromVERSION(t *testing.T) {
	files, err := chartFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	v, err := readVersion("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nversion: " + v + "\n", "\nappVersion: \"v" + v + "\"\n", "\nkubeVersion: \">=1.30.0-0\"\n"} {
		if !strings.Contains(files["Chart.yaml"], want) {
			t.Errorf("Chart.yaml lacks %q:\n%s", want, files["Chart.yaml"])
		}
	}
	for _, img := range []string{"kruise-apiserver", "kruise-controller", "kruise-node-daemon"} {
		if want := "image: kruise-native/" + img + ":v" + v + "\n"; !strings.Contains(files["values.yaml"], want) {
			t.Errorf("values.yaml lacks %q", want)
		}
	}
	if strings.Contains(files["values.yaml"], ":latest") {
		t.Error("values.yaml names a :latest image")
	}
	objs, err := kustomize("../..", "artifacts/deploy")
	if err != nil {
		t.Fatal(err)
	}
	if err := checkImageTags(objs, "artifacts/deploy", "v"+v); err != nil {
		t.Error(err)
	}
	if err := checkImageTags(objs, "artifacts/deploy", "v0.0.0-other"); err == nil || !strings.Contains(err.Error(), "make chart") {
		t.Errorf("a tag other than VERSION's: err = %v, want the refusal", err)
	}
}

// A JSON argument's default must be what helm's toJson renders from the value, or the
// chart's defaults would not render the kustomize base.
func TestArgDefault(t *testing.T) {
	h := argHole{flag: "--sel", json: true}
	if v, err := argDefault(h, `{"matchLabels":{"a":"b"}}`); err != nil || v == nil {
		t.Errorf("compact JSON: %v, %v", v, err)
	}
	for _, bad := range []string{`{"matchLabels": {"a":"b"}}`, `{"b":1,"a":2}`, `{`} {
		if _, err := argDefault(h, bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if v, err := argDefault(argHole{flag: "--p"}, "Ignore"); err != nil || v != "Ignore" {
		t.Errorf("scalar: %v, %v", v, err)
	}
}
