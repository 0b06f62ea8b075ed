#!/usr/bin/env bash
# Puts the shipped `mmsearch` binary on the PATH: builds it with tools/release-build.sh (the static,
# ordered build the README and CI use; under a minute on a fresh clone, seconds when it is current)
# and copies it to PREFIX/bin.
#
# usage: tools/install.sh [--prefix DIR] [--binary PATH]      install (PREFIX: $PREFIX, else ~/.local)
#        tools/install.sh [--prefix DIR] --uninstall          remove PREFIX/bin/mmsearch
#   --binary PATH  install this mmsearch instead of building one (the tests install the one they built)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-$HOME/.local}
binary=
uninstall=false
usage() { sed -n '6,8s/^# \{0,1\}//p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
    --uninstall) uninstall=true; shift ;;
    -h|--help) usage ;;
    *) echo "install.sh: unknown argument $1" >&2; usage ;;
  esac
done
target=$prefix/bin/mmsearch

if $uninstall; then
  if [ -e "$target" ]; then
    rm -f "$target"
    echo "removed $target"
  else
    echo "nothing to remove: $target does not exist"
  fi
  exit 0
fi

if [ -z "$binary" ]; then
  "$root/tools/release-build.sh" --product mmsearch
  binary=$("$root/tools/release-build.sh" --show-bin-path)/mmsearch
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 1; }

# Copied beside the target, then renamed over it: a running mmsearch keeps its old file, and an
# interrupted copy never leaves half a binary under the name.
mkdir -p "$prefix/bin"
cp "$binary" "$target.tmp-$$"
chmod 0755 "$target.tmp-$$"
mv -f "$target.tmp-$$" "$target"
echo "installed $target ($("$target" --version))"

case ":$PATH:" in
  *":$prefix/bin:"*)
    found=$(command -v mmsearch || true)
    if [ "$found" = "$target" ]; then
      echo "$prefix/bin is on your PATH: \`mmsearch\` runs it"
    else
      echo "$prefix/bin is on your PATH, but \`mmsearch\` runs $found, which comes before it"
    fi ;;
  *)
    echo "$prefix/bin is not on your PATH; add it, e.g. in ~/.profile:"
    echo "  export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
echo "to uninstall: tools/install.sh$([ "$prefix" = "$HOME/.local" ] || printf ' --prefix %q' "$prefix") --uninstall"
