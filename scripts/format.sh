#!/usr/bin/env bash
# Formats every C and C++ file meshvk owns with clang-format 22 (the house style:
# .clang-format at the root, compiler/.clang-format for the compiler).
#   scripts/format.sh          rewrite the files in place
#   scripts/format.sh --check  change nothing; list unformatted files, exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."

CLANG_FORMAT="${CLANG_FORMAT:-clang-format-22}"
if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "format.sh: $CLANG_FORMAT not found (apt-get install clang-format-22, or set CLANG_FORMAT)" >&2
  exit 2
fi

mapfile -t files < <(git ls-files -- '*.h' '*.hpp' '*.c' '*.cc' '*.cpp')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    if ! "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
  done
  if [ ${#bad[@]} -ne 0 ]; then
    printf 'not formatted (run scripts/format.sh): %s\n' "${bad[@]}" >&2
    exit 1
  fi
  exit 0
fi
"$CLANG_FORMAT" -i "${files[@]}"
