#!/usr/bin/env bash
# The static checks of `npm test`: the type checks and ESLint at once (each keeps about one core busy), both run to
# the end so one run shows every problem; fails when either does.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run -s typecheck &
typecheck=$!
npm run -s lint &
lint=$!
status=0
wait "$typecheck" || status=1
wait "$lint" || status=1
exit $status
