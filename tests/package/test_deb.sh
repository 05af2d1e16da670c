#!/usr/bin/env bash
# The Debian packages (cmake/packaging.cmake, README "Installing the Debian package"), built
# from a configured and built build directory and used as a user would:
#   1. cpack -G DEB into a scratch directory: collide_VERSION_ARCH.deb and collide-dev_...;
#   2. lintian on each: any E: line fails (the whole output is printed);
#   3. what each holds (dpkg-deb -c) and what each depends on (dpkg-deb -f): the shared
#      libraries dpkg-shlibdeps found, and for -dev the runtime package of the same version and
#      the -dev packages collideConfig.cmake finds;
#   4. both extracted (dpkg-deb -x) into a scratch root: the program checks a sample (the
#      golden report, exit 0), man -w finds the page, the completion loads in bash, and
#      tests/consumer builds against the -dev package with find_package.
# Nothing is installed on the machine. A missing tool fails the test (tests/deps.sh installs
# them): a package test that skips itself would pass a package nobody looked at.
#
#   bash tests/package/test_deb.sh BUILD_DIR WORK_DIR
# CTest runs it (tests/CMakeLists.txt) with CMAKE and CPACK set to its own cmake and cpack.
set -euo pipefail

build=$(cd "$1" && pwd)
work=$2
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
cmake=${CMAKE:-cmake}
cpack=${CPACK:-cpack}

step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

step "tools: cpack, dpkg-deb, dpkg-shlibdeps, lintian, man"
for tool in "$cmake" "$cpack" dpkg-deb dpkg-shlibdeps lintian man; do
  command -v "$tool" >/dev/null || fail "$tool is missing (bash tests/deps.sh installs it)"
done

cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
version=$(cache CMAKE_PROJECT_VERSION)
generator=$(cache CMAKE_GENERATOR)
arch=$(dpkg --print-architecture)
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
runtime_deb=collide_${version}_${arch}.deb
dev_deb=collide-dev_${version}_${arch}.deb

rm -rf "$work"
mkdir -p "$work/out"
work=$(cd "$work" && pwd)

step "cpack -G DEB into $work/out"
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 \
  || { cat "$work/cpack.log"; fail "cpack failed"; }
(cd "$work/out" && ls -l -- *.deb)
for deb in "$runtime_deb" "$dev_deb"; do
  [ -f "$work/out/$deb" ] || fail "cpack made no $deb"
done

step "lintian"
# Exit 1: errors found (lintian's default --fail-on error); 2 and up: lintian itself failed.
rc=0
lintian_out=$(cd "$work/out" && lintian "$runtime_deb" "$dev_deb" 2>&1) || rc=$?
echo "$lintian_out"
! grep -q '^E:' <<<"$lintian_out" || fail "lintian reports errors"
[ "$rc" -eq 0 ] || fail "lintian exit $rc"

contents() { dpkg-deb -c "$work/out/$1" | awk '{print $NF}' | sed 's|^\./||'; }
expect_file() {  # DEB PATTERN (an extended regular expression for the whole path)
  contents "$1" | grep -Eqx "$2" || fail "$1 holds no $2"
}

step "contents of $runtime_deb"
contents "$runtime_deb"
expect_file "$runtime_deb" "usr/bin/collide"
expect_file "$runtime_deb" "usr/share/man/man1/collide\.1\.gz"
expect_file "$runtime_deb" "usr/share/bash-completion/completions/collide"
expect_file "$runtime_deb" "usr/share/doc/collide/copyright"
expect_file "$runtime_deb" "usr/share/doc/collide/changelog\.gz"
! contents "$runtime_deb" | grep -Eq '^usr/(include|lib)/' || fail "$runtime_deb holds development files"

step "contents of $dev_deb"
contents "$dev_deb"
for header in "$source_dir"/lib/include/collide/*.hpp; do
  expect_file "$dev_deb" "usr/include/collide/$(basename "$header")"
done
expect_file "$dev_deb" "usr/lib/([^/]+/)?libcollide\.(a|so)"
for f in collideConfig collideConfigVersion collideTargets; do
  expect_file "$dev_deb" "usr/lib/([^/]+/)?cmake/collide/$f\.cmake"
done
expect_file "$dev_deb" "usr/share/doc/collide-dev/copyright"
! contents "$dev_deb" | grep -Eq '^usr/(bin|share/man)/' || fail "$dev_deb holds the program's files"

# Depends as a list of package names (versions and alternatives dropped).
depends() { dpkg-deb -f "$work/out/$1" Depends | tr ',|' '\n\n' | sed 's/(.*)//; s/ //g' | sed '/^$/d'; }
expect_depends() {  # DEB PACKAGE...
  local deb=$1 names
  shift
  names=$(depends "$deb")
  for p in "$@"; do
    grep -qx "$p" <<<"$names" || fail "$deb does not depend on $p: $(dpkg-deb -f "$work/out/$deb" Depends)"
  done
}

step "Depends"
echo "$runtime_deb: $(dpkg-deb -f "$work/out/$runtime_deb" Depends)"
echo "$dev_deb: $(dpkg-deb -f "$work/out/$dev_deb" Depends)"
# From dpkg-shlibdeps: the C and C++ runtimes and the map libraries the program links (Debian
# 12's package names).
expect_depends "$runtime_deb" libc6 libstdc++6 libpugixml1v5 zlib1g libdeflate0 libzstd1
# What collideConfig.cmake calls find_dependency and pkg_check_modules on, and the program.
expect_depends "$dev_deb" collide libpugixml-dev zlib1g-dev libzstd-dev libdeflate-dev pkgconf
dpkg-deb -f "$work/out/$dev_deb" Depends | grep -q "collide (= $version)" \
  || fail "$dev_deb does not depend on collide (= $version)"

root=$work/root
step "dpkg-deb -x both into $root"
for deb in "$runtime_deb" "$dev_deb"; do
  dpkg-deb -x "$work/out/$deb" "$root"
done

step "the extracted collide: --version, and check samples/shmup-bullets.json"
got=$("$root/usr/bin/collide" --version)
[ "$got" = "collide $version" ] || fail "collide --version says '$got'"
rc=0
"$root/usr/bin/collide" check "$source_dir/samples/shmup-bullets.json" >"$work/report.json" || rc=$?
[ "$rc" -eq 0 ] || fail "collide check samples/shmup-bullets.json: exit $rc (0 expected)"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/report.json" \
  || fail "the report is not JSON"
# samples/shmup-bullets.json is run from the repository's top in the golden report.
(cd "$source_dir" && "$root/usr/bin/collide" check samples/shmup-bullets.json) \
  | cmp - "$source_dir/tests/cli/golden/shmup-bullets.json" || fail "the report differs from its golden"

step "man -w collide, with MANPATH in the scratch root"
page=$(MANPATH=$root/usr/share/man man -w collide)
[ "$page" = "$root/usr/share/man/man1/collide.1.gz" ] || fail "man -w collide says '$page'"
zcat "$page" | grep -q '^\.TH COLLIDE "1"' || fail "$page is not the collide(1) page"

step "the completion loads in plain bash"
got=$(bash --norc --noprofile -c 'source "$1" && complete -p collide' bash \
        "$root/usr/share/bash-completion/completions/collide")
[ "$got" = "complete -F _collide collide" ] || fail "complete -p collide says '$got'"

step "tests/consumer with find_package(collide) from the extracted -dev package"
"$cmake" -DBUILD_DIR="$build" -DSOURCE_DIR="$source_dir/tests/consumer" -DWORK_DIR="$work/consumer" \
  -DGENERATOR="$generator" -DPREFIX="$root/usr" -P "$source_dir/tests/consumer/run.cmake"
grep -qx "collide_DIR:PATH=$root/usr/lib/\(.*/\)\?cmake/collide" "$work/consumer/build/CMakeCache.txt" \
  || fail "the consumer found another collide: $(grep collide_DIR "$work/consumer/build/CMakeCache.txt")"

step "ok: $runtime_deb and $dev_deb"
