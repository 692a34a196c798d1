#!/bin/sh
# Which snug functions exist yet: one "#define HAVE_<symbol> 1" per function the library archive defines, so the
# benchmark compiles against a core that is still being written and says "not implemented yet" for the rest.
# usage: have.sh <nm tool> <libsnug.a> > have.h   (nm for the native archive, llvm-nm for the wasm one)
"$1" -g --defined-only "$2" 2>/dev/null | awk '$2 == "T" { print "#define HAVE_" $3 " 1" }' | sort -u
