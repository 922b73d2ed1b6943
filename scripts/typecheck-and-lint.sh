#!/usr/bin/env bash
# `npm run typecheck` and `npm run lint` side by side: each is one single-threaded process, so on a
# machine with two cores or more the pair takes as long as the slower one. Each one's output is shown
# whole once it ends; the step fails if either fails.
set -uo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm run --silent typecheck >"$out/typecheck" 2>&1 &
typecheck=$!
npm run --silent lint >"$out/lint" 2>&1 &
lint=$!
wait "$typecheck"; typecheck_status=$?
wait "$lint"; lint_status=$?
for step in typecheck lint; do
  status_var="${step}_status"
  echo "== npm run $step (exit ${!status_var})"
  cat "$out/$step"
done
[ "$typecheck_status" -eq 0 ] && [ "$lint_status" -eq 0 ]
