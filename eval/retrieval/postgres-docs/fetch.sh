#!/usr/bin/env bash
# Fetches Debian's postgresql-doc-15 (the PostgreSQL 15 manual as DocBook HTML, 1,169 pages) into
# eval/retrieval/.cache/postgresql-doc-15, once: `apt-get download` needs no root, only Debian's mirror.
# The evaluation serves parts I to III of it (the tutorial, the SQL language, server administration).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target=.cache/postgresql-doc-15
if [ -f "$target/usr/share/doc/postgresql-doc-15/html/index.html" ]; then exit 0; fi
mkdir -p .cache/download
(cd .cache/download && apt-get download postgresql-doc-15 >/dev/null)
dpkg-deb -x .cache/download/postgresql-doc-15_*.deb "$target"
dpkg-deb -f .cache/download/postgresql-doc-15_*.deb Version > "$target/VERSION"
