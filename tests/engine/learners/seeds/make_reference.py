"""Writes reference.json: what real CPython 3.11 does with each seedNNN.py in this folder.

    python3 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install numpy matplotlib scikit-learn graphviz torch==2.13.0 micrograd==0.1.0
    python3 tests/engine/learners/seeds/make_reference.py [--python /tmp/refvenv/bin/python] [seed000 ...]

Each program runs as one file (its cells in order, so an error stops the rest, as "Run All"
does), in a fresh subprocess of the venv's interpreter, with:
  - MPLBACKEND=Agg (plt.show does nothing), PYTHONIOENCODING=utf-8;
  - a fresh temporary directory as the working directory;
  - random.seed(0) and numpy.random.seed(0) run before the program (as gradstep seeds them);
  - every line whose first non-blank character is `!` or `%` replaced by `pass` at the same
    indentation (gradstep drops notebook shell and magic lines);
  - script semantics: a cell's last expression is not displayed.
Recorded per program: its stdout exactly; the error, if it raises, as its type, its message
(str(exception); a SyntaxError's msg) and its line in seedNNN.py (the traceback's last frame in the
program); and "seconds", the wall time of running the program (after the seeding, without the
interpreter's start).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PYTHON = "/tmp/refvenv/bin/python"

# Runs inside the child: argv[1] the program, argv[2] where to write the error and the time.
CHILD = r'''
import json, re, sys, time, traceback
program, result = sys.argv[1], sys.argv[2]
with open(program, encoding="utf-8") as fh:
    source = fh.read()
source = re.sub(r"(?m)^([ \t]*)[!%].*$", r"\1pass", source)
import random
random.seed(0)
import numpy
numpy.random.seed(0)
sys.argv = [program]
namespace = {"__name__": "__main__", "__builtins__": __builtins__}
error = None
start = time.perf_counter()
try:
    code = compile(source, program, "exec")
    exec(code, namespace)
except BaseException as exc:
    line = None
    if isinstance(exc, SyntaxError) and exc.filename == program:
        line = exc.lineno
        message = exc.msg
    else:
        message = str(exc)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == program]
    if frames:
        line = frames[-1].lineno
    error = {"type": type(exc).__name__, "message": message, "line": line}
seconds = time.perf_counter() - start
sys.stdout.flush()
with open(result, "w", encoding="utf-8") as fh:
    json.dump({"error": error, "seconds": seconds}, fh)
'''


def run(python: str, program: Path) -> dict:
    work = Path(tempfile.mkdtemp(prefix="gradstep-ref-"))
    result = work / ".result.json"
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONIOENCODING="utf-8")
    env.pop("PYTHONSTARTUP", None)
    try:
        proc = subprocess.run(
            [python, "-c", CHILD, str(program), str(result)],
            cwd=work, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=3600,
        )
        stdout = proc.stdout.decode("utf-8")
        if not result.exists():
            raise RuntimeError(f"{program.name}: the child died (rc {proc.returncode}):\n"
                               + proc.stderr.decode("utf-8", "replace")[-3000:])
        outcome = json.loads(result.read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"stdout": stdout, "error": outcome["error"], "seconds": round(outcome["seconds"], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=DEFAULT_PYTHON, help="the CPython 3.11 to run the seeds")
    parser.add_argument("seeds", nargs="*", help="seed names (seed000 ...); all when none")
    args = parser.parse_args()
    version = subprocess.run([args.python, "-c", "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    if version != "(3, 11)":
        sys.exit(f"{args.python} is Python {version}, not 3.11")
    programs = sorted(HERE.glob("seed[0-9][0-9][0-9].py"))
    if args.seeds:
        programs = [p for p in programs if p.stem in args.seeds]
    out = HERE / "reference.json"
    reference = json.loads(out.read_text(encoding="utf-8")) if args.seeds and out.exists() else {}
    for program in programs:
        entry = run(args.python, program)
        reference[program.stem] = entry
        err = entry["error"]
        print(f"{program.stem}: {len(entry['stdout'].splitlines())} lines printed, "
              f"{entry['seconds']:.2f} s, "
              + (f"{err['type']} at line {err['line']}: {err['message']}" if err else "finished"))
    reference = dict(sorted(reference.items()))
    out.write_text(json.dumps(reference, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
