#!/usr/bin/env bash
# Runs every test suite (unit, integration, CLI, keychain, renderer, end-to-end)
# and prints one closing line that counts them all. Called by `npm test` inside
# scripts/with-keyring.sh, so the keychain tests have a real Secret Service.
set -uo pipefail
cd "$(dirname "$0")/.."
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || status=1
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json || status=1

node scripts/summarise-tests.mjs "$reports/vitest.json" "$reports/playwright.json" || status=1
exit $status
