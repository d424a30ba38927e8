#!/usr/bin/env bash
# Installs the system packages the build needs, only when they are missing (Debian/Ubuntu).
# libxml2-dev + pkg-config: cgo XSD validation (engine/xsd). Java 17 + Maven are preinstalled on the
# development machines and are needed only for the conformance oracle (make test).
set -euo pipefail
need=()
pkg-config --exists libxml-2.0 2>/dev/null || need+=(libxml2-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
