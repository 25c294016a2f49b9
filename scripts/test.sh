#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine, then run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Python's venv (Debian keeps ensurepip, which gives a venv its pip, in
# python3-venv, not installed by default), Graphviz for layout, Chromium for the browser tests,
# a font for PNGs, PostgreSQL for the link store's tests and Redis for the live classes' (they
# start their own servers), zbar to read QR codes, npm to fetch reveal.js for the slide-deck test and axe-core for the
# accessibility test.
need=()
python3 -c "import ensurepip" 2>/dev/null || need+=(python3-venv)
command -v dot >/dev/null || need+=(graphviz)
command -v chromium >/dev/null || need+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null || need+=(redis-server)
command -v zbarimg >/dev/null || need+=(zbar-tools)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
# The sandbox's CPython component (and the WebAssembly Graphviz), built and compiled once ahead
# (about a minute on a fresh machine) rather than inside the first tests that run a program: in
# the background, beside the test tools' install and the checks below, which need no sandbox.
.venv/bin/gradstep sandbox &
sandbox=$!
trap 'kill $sandbox 2>/dev/null || true' EXIT  # a failed step below ends the build too
.venv/bin/python -m pip install -q -e '.[test]'
# both at once: an install of one into the prefix removes the other
[ -e .cache/npm/node_modules/reveal.js/dist/reveal.js ] && [ -e .cache/npm/node_modules/axe-core/axe.min.js ] ||
    npm install -s --prefix .cache/npm reveal.js@5 axe-core@4 --no-audit --no-fund --no-save >/dev/null

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
wait $sandbox  # its status: a failed build stops here
# On every core (pytest-xdist), a test file to a worker: each worker starts its own servers
# (uvicorn, PostgreSQL, Redis, Jupyter) on free ports with its own data folder; the files in
# tests/conftest.py's order, the longest first (not xdist's, by their number of tests). Then, alone,
# the tests held to a deadline of their own (a shutdown within its seconds), which the other
# worker's load would stretch. (Exit status 5: none of them was asked for.)
.venv/bin/python -m pytest -n auto --dist loadfile --no-loadscope-reorder -m "not serial" "$@"
.venv/bin/python -m pytest -m serial "$@" || [ $? -eq 5 ]
