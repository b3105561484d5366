#!/usr/bin/env bash
# Install the Debian packages judgeapp needs when any is missing: WeasyPrint's Pango and fonts
# (CJK included, for Japanese and other player names), Chromium for the browser tests, WebKitGTK's WebDriver (its
# MiniBrowser comes with libwebkit2gtk-4.1-0) and Xvfb for the WebKit tests (tests/browser/test_webkit.py), PostgreSQL
# for the second test pass, Redis for the login limits shared by several workers (scripts/with-redis.sh), Node for the
# unit tests of the phone's script (tests/js, run by tests/unit/test_javascript.py), stress-ng for `make test-loaded`
# (one core kept busy while the suite runs), esbuild (Debian's, a Go program: no Node toolchain) to minify the phone's
# two script bundles with short local names (judgeapp/offline/bundles.py). Does nothing
# when all are there.
set -euo pipefail
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-noto-core fonts-noto-cjk
          chromium webkit2gtk-driver xvfb postgresql redis-server python3-venv poppler-utils nodejs
          stress-ng esbuild)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "Missing Debian packages (${missing[*]}); install them as root: apt-get install ${missing[*]}" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
