#!/usr/bin/env bash
# Fetches Debian's python3.11-doc (the Python 3.11 manual as HTML, 530 pages) into
# eval/retrieval/.cache/python3.11-doc, once: `apt-get download` needs no root, only Debian's mirror.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target=.cache/python3.11-doc
if [ -f "$target/usr/share/doc/python3.11/html/index.html" ]; then exit 0; fi
mkdir -p .cache/download
(cd .cache/download && apt-get download python3.11-doc >/dev/null)
dpkg-deb -x .cache/download/python3.11-doc_*.deb "$target"
dpkg-deb -f .cache/download/python3.11-doc_*.deb Version > "$target/VERSION"
