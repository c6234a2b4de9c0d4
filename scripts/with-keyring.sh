#!/usr/bin/env bash
# Runs a command against a real, throwaway OS keychain (Linux Secret Service):
# a private D-Bus session, a temporary HOME/XDG folders and gnome-keyring-daemon
# unlocked with a test password. Nothing touches the user's own keyring.
#   bash scripts/with-keyring.sh npx vitest run --project keychain
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/with-keyring.sh COMMAND [ARGS...]" >&2
  exit 2
fi

missing=()
command -v dbus-run-session >/dev/null 2>&1 || missing+=("dbus-run-session (package dbus-user-session or dbus-daemon)")
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=("gnome-keyring-daemon (package gnome-keyring)")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "with-keyring: cannot start a test keychain; missing: ${missing[*]}." >&2
  echo "Install them, e.g.: sudo apt-get install dbus-user-session gnome-keyring libsecret-1-0" >&2
  exit 1
fi

ORIGINAL_HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
KEYRING_TMP="$(mktemp -d "${TMPDIR:-/tmp}/privacy-desk-keyring.XXXXXX")"
cleanup() { rm -rf "$KEYRING_TMP"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$KEYRING_TMP/home" "$KEYRING_TMP/run" "$KEYRING_TMP/data" "$KEYRING_TMP/config" "$KEYRING_TMP/cache"
chmod 700 "$KEYRING_TMP" "$KEYRING_TMP/run"

export HOME="$KEYRING_TMP/home"
export XDG_RUNTIME_DIR="$KEYRING_TMP/run"
export XDG_DATA_HOME="$KEYRING_TMP/data"
export XDG_CONFIG_HOME="$KEYRING_TMP/config"
export XDG_CACHE_HOME="$KEYRING_TMP/cache"
# Keep the tools' own caches where they were: a fresh HOME must not make npm or Playwright re-download.
export npm_config_cache="${npm_config_cache:-$ORIGINAL_HOME/.npm}"
if [ -z "${PLAYWRIGHT_BROWSERS_PATH:-}" ] && [ -d "$ORIGINAL_HOME/.cache/ms-playwright" ]; then
  export PLAYWRIGHT_BROWSERS_PATH="$ORIGINAL_HOME/.cache/ms-playwright"
fi

# Inside the private bus: start the keyring, unlocked with a throwaway password, then run the command.
# The daemon exits with the bus when the command ends.
set +e
dbus-run-session -- bash -c '
  set -e
  eval "$(printf "privacy-desk-test" | gnome-keyring-daemon --unlock --components=secrets --daemonize)" >/dev/null
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
  export PRIVACY_DESK_KEYRING=1
  exec "$@"
' with-keyring "$@"
status=$?
set -e
exit "$status"
