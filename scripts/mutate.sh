#!/usr/bin/env bash
# Mutation score of some source files against some test files, with Stryker 9.6.1 and its Vitest
# runner (Stryker 10 needs Node 22). Stryker is not a dependency of the project: it is installed
# once into a prefix outside the repo ($STRYKER_PREFIX, default /tmp/stryker-conductor).
#
#   scripts/mutate.sh src/engine/eval/scorers/mc-v2.ts -- src/engine/eval/scorers/mc-v2.test.ts ...
#
# Prints Stryker's table and the score; the HTML report is in reports/mutation/ (ignored by git).
# Incremental: a rerun retests only the mutants whose code or covering tests changed (the results
# of a run are kept in reports/mutation/$MUTATE_NAME-incremental.json; MUTATE_NAME default
# "stryker", give each set of files its own name).
set -euo pipefail
cd "$(dirname "$0")/.."

mutate=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do mutate+=("$1"); shift; done
[ $# -gt 0 ] && shift
tests=("$@")
if [ ${#mutate[@]} -eq 0 ] || [ ${#tests[@]} -eq 0 ]; then
  echo "usage: scripts/mutate.sh FILE_TO_MUTATE... -- TEST_FILE..." >&2
  exit 2
fi

prefix="${STRYKER_PREFIX:-/tmp/stryker-conductor}"
version=9.6.1
if [ ! -x "$prefix/node_modules/.bin/stryker" ] ||
  ! grep -q "\"version\": \"$version\"" "$prefix/node_modules/@stryker-mutator/core/package.json"; then
  npm i --prefix "$prefix" --no-audit --no-fund \
    "@stryker-mutator/core@$version" "@stryker-mutator/vitest-runner@$version" >&2
fi
# The runner must drive the project's own Vitest (the tests import it): one copy, not two; Stryker's
# sandbox reads tsconfig.json with the project's TypeScript.
for pkg in vitest typescript; do
  rm -rf "${prefix:?}/node_modules/$pkg"
  ln -s "$PWD/node_modules/$pkg" "$prefix/node_modules/$pkg"
done

list() { printf '"%s",' "$@" | sed 's/,$//'; }
config="$(mktemp -d)/stryker.config.json"
cat >"$config" <<JSON
{
  "\$schema": "$prefix/node_modules/@stryker-mutator/core/schema/stryker-schema.json",
  "mutate": [$(list "${mutate[@]}")],
  "testRunner": "vitest",
  "vitest": { "configFile": "scripts/mutate.vitest.config.ts", "related": false },
  "coverageAnalysis": "perTest",
  "concurrency": ${MUTATE_CONCURRENCY:-1},
  "reporters": ["clear-text", "progress-append-only", "html", "json"],
  "htmlReporter": { "fileName": "reports/mutation/${MUTATE_NAME:-stryker}.html" },
  "jsonReporter": { "fileName": "reports/mutation/${MUTATE_NAME:-stryker}.json" },
  "incremental": true,
  "incrementalFile": "reports/mutation/${MUTATE_NAME:-stryker}-incremental.json",
  "tempDirName": ".stryker-tmp",
  "cleanTempDir": "always",
  "timeoutMS": 10000
}
JSON
export MUTATE_TESTS="${tests[*]}"
"$prefix/node_modules/.bin/stryker" run "$config"
