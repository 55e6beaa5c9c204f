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
		if !strings.Contains(all.String(), ".Values."+h.value+" ") {
			t.Errorf("value %s is not used by any template", h.value)
		}
	}
	for _, want := range []string{"--feature-gates=", `eq .Values.etcd.mode "single"`, `eq .Values.etcd.mode "cluster"`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no template has %s", want)
		}
	}
}
