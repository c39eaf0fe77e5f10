#!/usr/bin/env bash
# The GitHub Action's one step (action.yml): fetch the release binary for this runner, check it
# against the release's SHA256SUMS (or build it from the action's checkout: `version: source`, or
# `latest` before any release), run `shiro -p`, and hand back its answer, exit code and cost as
# step outputs. Everything comes in through the environment (INPUT_*, RUNNER_*, GITHUB_OUTPUT), so the
# same script runs on a laptop against a local release folder (see test/e2e/action/action.test.ts).
set -euo pipefail

fail() { echo "::error::shiro action: $*" >&2; exit 1; }

[ -n "${INPUT_PROMPT:-}" ] || fail "the prompt input is empty: say what shiro should do"
temp="${RUNNER_TEMP:-$(mktemp -d)}/shiro-action"
mkdir -p "$temp"
# A job may use the action more than once: each use keeps its answer and event log in its own folder.
run=$(mktemp -d "$temp/run.XXXXXX")

# The runner's OS and architecture, as the release names its binaries (build.ts).
os="${RUNNER_OS:-$(uname -s)}"
arch="${RUNNER_ARCH:-$(uname -m)}"
case "$os" in
  Linux | linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) fail "no shiro build for the OS $os (there are linux, darwin and windows builds)" ;;
esac
case "$arch" in
  X64 | x86_64 | amd64) arch=x64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 ;;
  *) fail "no shiro build for the architecture $arch (there are x64 and arm64 builds)" ;;
esac
[ "$os-$arch" != windows-arm64 ] || fail "no shiro build for windows-arm64 (windows is built for x64 only)"
asset="shiro-$os-$arch"
[ "$os" != windows ] || asset="$asset.exe"

repo="${ACTION_REPOSITORY:-shiro-neko/shiro-neko}"
version="${INPUT_VERSION:-latest}"
if [ -n "${INPUT_RELEASE_URL:-}" ]; then base="${INPUT_RELEASE_URL%/}"
elif [ "$version" = latest ]; then base="https://github.com/$repo/releases/latest/download"
else base="https://github.com/$repo/releases/download/$version"; fi

# shiro built from the action's own checkout (this script's repository), with Bun installed as the
# README does when the runner has none. What `version: source` asks for, and what `latest` falls back to
# before the first release. The build's output is shown only when it fails.
build_from_source() {
  local src="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
  if ! command -v bun >/dev/null 2>&1; then
    npm install -g bun >"$run/build.log" 2>&1 && command -v bun >/dev/null 2>&1 ||
      { tail -n 20 "$run/build.log" >&2; fail "no Bun to build shiro with, and npm install -g bun did not give one"; }
  fi
  echo "building shiro from $src with Bun $(bun --version)"
  if ! (cd "$src" && bun install --frozen-lockfile && bun build.ts) >>"$run/build.log" 2>&1; then
    tail -n 40 "$run/build.log" >&2
    fail "building shiro in $src failed (bun install --frozen-lockfile && bun build.ts)"
  fi
  binary="$src/dist/shiro"
}

fetch() { curl --fail --silent --show-error --location --retry 3 --output "$2" "$base/$1" || fail "could not download $base/$1"; }
download_release() {
  local status
  status=$(curl --silent --show-error --location --retry 3 --output "$temp/SHA256SUMS" --write-out '%{http_code}' "$base/SHA256SUMS") ||
    fail "could not download $base/SHA256SUMS"
  # No release yet (a new fork, or before the first tag): `latest` has nothing to fetch. A pinned
  # version that is not there stays an error — it must never quietly become other code.
  if [ "$status" = 404 ] && [ "$version" = latest ]; then
    echo "::notice::shiro action: no shiro release at $base yet, so shiro is built from the action's own checkout (version: source)"
    build_from_source
    return
  fi
  [ "$status" = 200 ] || fail "could not download $base/SHA256SUMS (HTTP $status)"
  # The binary runs with the API key in reach: it must be the one the release says it is.
  local expected actual
  expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1 }' "$temp/SHA256SUMS")
  [ -n "$expected" ] || fail "$base/SHA256SUMS has no line for $asset"
  fetch "$asset" "$temp/$asset"
  if command -v sha256sum >/dev/null 2>&1; then actual=$(sha256sum "$temp/$asset" | cut -d' ' -f1)
  else actual=$(shasum -a 256 "$temp/$asset" | cut -d' ' -f1); fi
  if [ "$actual" != "$expected" ]; then
    rm -f "$temp/$asset"
    fail "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual; not running it"
  fi
  chmod +x "$temp/$asset"
  binary="$temp/$asset"
}

if [ "$version" = source ]; then build_from_source; else download_release; fi

# `args` is split as a shell would split it, quotes and all, but nothing in it is expanded or run.
extra=()
INPUT_ARGS="${INPUT_ARGS:-}" # (unset outside a runner, where action.yml does not give its default)
if [ -n "${INPUT_ARGS//[[:space:]]/}" ]; then
  printf '%s' "$INPUT_ARGS" | xargs printf '%s\0' >"$run/args" || fail "the args input does not split (a quote left open?): $INPUT_ARGS"
  while IFS= read -r -d '' word; do extra+=("$word"); done <"$run/args"
fi
[ -z "${INPUT_OUTPUT_SCHEMA:-}" ] || extra+=(--output-schema "$INPUT_OUTPUT_SCHEMA")
[ "${INPUT_EPHEMERAL:-true}" != true ] || extra+=(--ephemeral)
[ -z "${INPUT_OPENAI_API_KEY:-}" ] || export OPENAI_API_KEY="$INPUT_OPENAI_API_KEY"

answer="$run/answer"
events="$run/events.jsonl"
# stdin is no pipe a CI runner might leave open; `--` keeps a prompt that starts with "-" a prompt.
set +e
# (`${extra[@]+…}`: macOS's bash 3.2 calls an empty array unbound under `set -u`.)
"$binary" -p --json -o "$answer" ${extra[@]+"${extra[@]}"} -- "$INPUT_PROMPT" </dev/null >"$events"
code=$?
set -e

# The result line is always last; its costUsd is a number, or null for a model without a price.
cost=$(tail -n 1 "$events" | sed -n 's/.*"costUsd":\([0-9.eE+-]*\).*/\1/p')
output() { # output NAME FILE-OR-TEXT: a multi-line value under a delimiter it does not contain
  local delimiter="shiro_$RANDOM$RANDOM$RANDOM"
  while grep -qF "$delimiter" <<<"$2"; do delimiter="shiro_$RANDOM$RANDOM$RANDOM"; done
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"${GITHUB_OUTPUT:-/dev/null}"
}
result=""
[ ! -f "$answer" ] || result=$(cat "$answer")
output result "$result"
output exit-code "$code"
output cost "$cost"
output events "$events"

echo "shiro exited $code${cost:+, cost \$$cost}; events in $events"
[ -z "$result" ] || printf '%s\n' "$result"
exit "$code"
