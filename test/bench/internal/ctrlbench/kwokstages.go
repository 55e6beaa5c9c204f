package ctrlbench

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// startStages are the Stages that start containers: pod-ready (a new pod) and our
// in-place image update (a restarted container).
var startStages = map[string]bool{"pod-ready.yaml": true, "pod-inplace-image-update.yaml": true}

// WriteDelayedStages copies the local stack's kwok Stages from src to dst, giving the
// container-start Stages a delay: kwok then reports a pod Ready (or an in-place updated
// container running) only after delay ms, as a kubelet would after starting it.
func WriteDelayedStages(src, dst string, delayMs int64) error {
	files, err := filepath.Glob(filepath.Join(src, "*.yaml"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no kwok Stages in %s (%v)", src, err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dst, err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("reading %s: %w", f, err)
		}
		base := filepath.Base(f)
		if startStages[base] {
			var stage map[string]any
			if err := yaml.Unmarshal(raw, &stage); err != nil {
				return fmt.Errorf("parsing %s: %w", f, err)
			}
			spec, ok := stage["spec"].(map[string]any)
			if !ok {
				return fmt.Errorf("%s: no spec", f)
			}
			spec["delay"] = map[string]any{"durationMilliseconds": delayMs}
			if raw, err = yaml.Marshal(stage); err != nil {
				return fmt.Errorf("encoding %s: %w", f, err)
			}
		}
		if err := os.WriteFile(filepath.Join(dst, base), raw, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", base, err)
		}
	}
	for name := range startStages {
		if _, err := os.Stat(filepath.Join(dst, name)); err != nil {
			return fmt.Errorf("stage %s missing from %s", name, src)
		}
	}
	return nil
}
