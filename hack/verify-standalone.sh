#!/usr/bin/env bash
# Fails when a file of the repository refers to the folder that sits beside a developer's
# checkout (the shared folder one level up): a clone has nothing beside it, so a test, script or doc that
# reads from there works on one machine and fails for everyone else. Copy what is needed
# into the repository instead (the manifests live in examples/).
set -o errexit -o nounset -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The patterns are assembled so that this script does not match itself.
up='\.\.'
patterns=(-e "${up}/shared\b" -e "\"${up}\", *\"shared\"")
if hits=$(git ls-files -z --cached --others --exclude-standard | xargs -0 -r grep -nI "${patterns[@]}" --); then
  echo "files refer to the folder beside the checkout, outside the repository:" >&2
  echo "${hits}" >&2
  exit 1
fi
echo "standalone: nothing refers outside the repository"
