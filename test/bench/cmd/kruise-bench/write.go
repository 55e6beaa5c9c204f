package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/report"
)

// write saves the results as JSON, Markdown and charts, and updates the README.
func write(ctx context.Context, root, outDir string, res *report.Results, readme bool) error {
	logger := klog.FromContext(ctx)
	res.Targets = report.Judge(res)
	jsonPath := filepath.Join(outDir, res.Date+".json")
	if err := res.Write(jsonPath); err != nil {
		return err
	}
	charts, err := report.Charts(res, outDir)
	if err != nil {
		return err
	}
	md := "# Benchmark " + res.Date + "\n\n" + report.Markdown(res, ".", false) + profileTops(res)
	mdPath := filepath.Join(outDir, res.Date+".md")
	if err := os.WriteFile(mdPath, []byte(md), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", mdPath, err)
	}
	if readme {
		if err := report.UpdateREADME(filepath.Join(root, "README.md"), res); err != nil {
			return err
		}
	}
	logger.Info("Results written", "json", jsonPath, "markdown", mdPath, "charts", charts, "readme", readme)
	fmt.Println(report.Markdown(res, outDir, true))
	return nil
}

// profileTops appends the head of every captured profile to the full report.
func profileTops(res *report.Results) string {
	var b strings.Builder
	for _, p := range res.Profiles {
		if p.Top == "" {
			continue
		}
		fmt.Fprintf(&b, "\n### Profile %s\n\n```\n%s```\n", p.Name, p.Top)
	}
	return b.String()
}

func render(ctx context.Context, root, outDir, path string, readme bool) error {
	res, err := report.Read(path)
	if err != nil {
		return err
	}
	return write(ctx, root, outDir, res, readme)
}
