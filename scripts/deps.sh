#!/usr/bin/env bash
# Installs the system packages the build and the tests need, only when they are missing (Debian/Ubuntu).
#   libxml2-dev + pkg-config + gcc: cgo XSD validation (engine/xsd)
#   ghostscript: PDF -> PDF/A-3b conversion (pdfa/convert, facturx/embed)
#   icc-profiles-free: the sRGB ICC profile of every PDF/A output intent (read at run time, never committed)
#   poppler-utils, qpdf: test oracles (pdftotext, pdfdetach, pdftoppm; qpdf makes encrypted and incremental test PDFs)
#   chromium: golden screenshots of rendered HTML (tests only)
#   nginx, e2fsprogs: the reliability tests' loopback balancer and loop-mounted ext4 store (tests only)
#   openjdk-17-jdk-headless, maven: build and run the veraPDF worker (make verapdf) and the conformance
#   oracle (preinstalled on the development machines; installed here when missing)
set -euo pipefail
need=()
pkg-config --exists libxml-2.0 2>/dev/null || need+=(libxml2-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v gs >/dev/null 2>&1 || need+=(ghostscript)
[ -e /usr/share/color/icc/sRGB.icc ] || ls /usr/share/color/icc/*/sRGB*.icc >/dev/null 2>&1 || need+=(icc-profiles-free)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
if [ "${EINVOICE_DEPS_TEST:-0}" = 1 ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
  command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /usr/sbin/mkfs.ext4 ] || need+=(e2fsprogs)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
