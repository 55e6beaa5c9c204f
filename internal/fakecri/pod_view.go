package fakecri

import "sort"

// podView returns the sandboxes of pod namespace/name (of any UID, oldest first) and
// their containers (oldest first): what KubeletSim reconciles a pod against, taken in one
// consistent snapshot.
func (s *Server) podView(namespace, name string) ([]Sandbox, []Container) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sandboxes []Sandbox
	ids := map[string]bool{}
	for _, sb := range s.sandboxes {
		if sb.Namespace == namespace && sb.Name == name {
			sandboxes = append(sandboxes, sb.clone())
			ids[sb.ID] = true
		}
	}
	sort.Slice(sandboxes, func(i, j int) bool { return sandboxes[i].CreatedAt.Before(sandboxes[j].CreatedAt) })
	var containers []Container
	for _, c := range s.sortedContainersLocked() {
		if ids[c.SandboxID] {
			containers = append(containers, c.clone())
		}
	}
	return sandboxes, containers
}

// podKeys lists namespace/name of every sandbox, so KubeletSim can clean up after pods
// that went away while it was not watching.
func (s *Server) podKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	var keys []string
	for _, sb := range s.sandboxes {
		k := sb.Namespace + "/" + sb.Name
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}
