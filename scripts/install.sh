#!/usr/bin/env bash
# Installs everything Weir needs into the repo: .venv/, frontend/node_modules and
# the built front end, and Chromium for the browser tests. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check uv==0.13.8
.venv/bin/uv pip install -q --python .venv/bin/python -r requirements.lock
.venv/bin/uv pip install -q --python .venv/bin/python --no-deps -e .

# The classes a Spark driver loads, archived so that drivers start sooner
# (worker/runner/class_archive.py). Spark runs without it, only slower to start.
mkdir -p .state
if ! .venv/bin/python -m worker.runner.class_archive >.state/class-archive.log 2>&1; then
  echo "weir: could not archive the Spark driver's classes (.state/class-archive.log says why)" >&2
fi

(cd frontend && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)

# Headless Chromium drives the browser tests; Debian's package is the only offline source.
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
