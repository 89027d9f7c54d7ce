#!/usr/bin/env bash
# Build the example analyzers written in languages other than Rust into
# WebAssembly components:
#
#   examples/plugins/build.sh [python|c|all]     (default: all)
#
# Output ($PORTOLAN_EXAMPLES_OUT, default target/example-plugins):
#   python-pennant.wasm   Python, componentize-py (PyPI)
#   c-burrow.wasm         C, clang --target=wasm32-wasi + wasi-libc, bindings
#                         and component made by tools/componentize
#
# Installs what is missing: componentize-py (pip, into the output dir) and,
# when running as root with apt-get, Debian's clang, lld, wasi-libc and the
# wasm32 compiler runtime. A component is rebuilt only when its inputs (source,
# WIT, this script, toolchain version) changed, so a second run takes well
# under a second. Exit status 75 means a toolchain is missing and could not
# be installed here (the tests skip on it, saying so); anything else non-zero
# is a build failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${PORTOLAN_EXAMPLES_OUT:-$root/target/example-plugins}
what=${1:-all}
mkdir -p "$out"

COMPONENTIZE_PY_VERSION=0.25.1
UNAVAILABLE=75

log() { printf '[example-plugins] %s\n' "$*" >&2; }

# Prints a hash of the given files plus extra words; a build whose stamp
# matches is skipped.
stamp() {
  local extra=$1
  shift
  { cat "$@"; printf '%s' "$extra"; } | sha256sum | cut -d' ' -f1
}

fresh() { # fresh NAME STAMP
  [ -f "$out/$1.wasm" ] && [ -f "$out/$1.stamp" ] && [ "$(cat "$out/$1.stamp")" = "$2" ]
}

build_python() {
  local py="$out/componentize-py"
  local runner=(env PYTHONPATH="$py" python3 -c \
    'import sys; from componentize_py import script; sys.argv[0] = "componentize-py"; sys.exit(script())')
  local have
  have=$(PYTHONPATH="$py" python3 -c \
    'import importlib.metadata as m; print(m.version("componentize-py"))' 2>/dev/null || true)
  if [ "$have" != "$COMPONENTIZE_PY_VERSION" ]; then
    if ! command -v python3 >/dev/null; then
      log "python3 is missing: cannot build python-pennant"
      return $UNAVAILABLE
    fi
    if ! python3 -m pip --version >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      log "installing pip (apt)"
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null || true
    fi
    log "installing componentize-py $COMPONENTIZE_PY_VERSION into $py"
    if ! python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --upgrade \
      --target "$py" "componentize-py==$COMPONENTIZE_PY_VERSION"; then
      log "could not install componentize-py from PyPI: cannot build python-pennant"
      return $UNAVAILABLE
    fi
  fi
  local src="$here/python-pennant"
  local s
  s=$(stamp "componentize-py $COMPONENTIZE_PY_VERSION" "$src/analyzer.py" "$root/wit/analyzer.wit" "$here/build.sh")
  if fresh python-pennant "$s"; then
    return 0
  fi
  log "building python-pennant.wasm (componentize-py, ~30 s)"
  (cd "$root" && "${runner[@]}" -d wit -w plugin componentize -p "$src" analyzer \
    -o "$out/python-pennant.wasm.tmp" >/dev/null)
  mv "$out/python-pennant.wasm.tmp" "$out/python-pennant.wasm"
  echo "$s" >"$out/python-pennant.stamp"
}

# clang that can compile and link a wasm32-wasi reactor module.
clang_works() {
  command -v clang >/dev/null || return 1
  local t
  t=$(mktemp -d)
  printf '#include <stdlib.h>\n#include <string.h>\nint f(const char *s) { return (int)strlen(s) + (malloc(1) != 0); }\n' >"$t/probe.c"
  local rc=0
  clang --target=wasm32-wasi -mexec-model=reactor -O2 -o "$t/probe.wasm" "$t/probe.c" >/dev/null 2>&1 || rc=1
  rm -rf "$t"
  return $rc
}

install_clang() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    return 1
  fi
  log "installing clang, lld, wasi-libc and the wasm32 runtime (apt)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang lld wasi-libc >/dev/null
  local major
  major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "libclang-rt-$major-dev-wasm32" >/dev/null
}

build_c() {
  if ! clang_works; then
    if ! install_clang || ! clang_works; then
      log "no clang able to target wasm32-wasi (Debian: clang lld wasi-libc libclang-rt-NN-dev-wasm32): cannot build c-burrow"
      return $UNAVAILABLE
    fi
  fi
  # The bindings generator and component encoder (a few crates.io libraries;
  # cargo makes this a no-op once built). The dev profile compiles with about
  # a third of the CPU time of release and is fast enough on these inputs.
  local tool="$out/tools/debug/portolan-componentize"
  if ! (cd "$here/tools/componentize" &&
    cargo build --quiet --locked --target-dir "$out/tools"); then
    log "could not build tools/componentize"
    return 1
  fi
  local src="$here/c-burrow"
  local s
  s=$(stamp "$(clang --version | head -n1)" "$src/analyzer.c" "$root/wit/analyzer.wit" "$here/build.sh" "$tool")
  if fresh c-burrow "$s"; then
    return 0
  fi
  log "building c-burrow.wasm (clang + componentize)"
  local b="$out/c-burrow"
  mkdir -p "$b"
  "$tool" bindings "$root/wit" plugin "$b/bindings"
  clang --target=wasm32-wasi -mexec-model=reactor -O2 -Wall -Wextra -Werror \
    -Wl,--strip-debug -I "$b/bindings" -o "$b/core.wasm" \
    "$src/analyzer.c" "$b/bindings/plugin.c" "$b/bindings/plugin_component_type.o"
  "$tool" component "$b/core.wasm" "$out/c-burrow.wasm.tmp"
  mv "$out/c-burrow.wasm.tmp" "$out/c-burrow.wasm"
  echo "$s" >"$out/c-burrow.stamp"
}

case "$what" in
python) build_python ;;
c) build_c ;;
all)
  # separate processes, so that `set -e` applies inside each build
  rc=0
  "$here/build.sh" python || rc=$?
  "$here/build.sh" c || rc=$?
  exit $rc
  ;;
*)
  echo "usage: $0 [python|c|all]" >&2
  exit 2
  ;;
esac
