"""The sandbox's walls and limits, tried by hostile programs: a program reads no file, reaches no
network or environment, spawns nothing, leaves nothing for the next run, and is stopped by its
fuel or its memory with a clear error; what it sends back is read as untrusted."""

from __future__ import annotations

import json

import pytest

from engine import GradstepError, run, runner
from engine.limits import RunLimits
from engine.runner import run_record, sandbox
from engine.runner.sandbox import Exhausted

SMALL_FUEL = 2_000_000_000  # under a second: enough for every program here but the loops


def printed(source: str) -> list[str]:
    return [text for _, text in run(source).console]


@pytest.mark.parametrize(
    ("program", "error"),
    [
        ("open('/etc/passwd').read()", "FileNotFoundError"),
        ("import os\nos.listdir('/')", "FileNotFoundError"),
        ("open('/tmp/x', 'w').write('x')", "FileNotFoundError"),
        ("import socket", "ModuleNotFoundError"),
        ("import subprocess", "ModuleNotFoundError"),
        ("import ctypes", "ModuleNotFoundError"),
        ("import threading", "ModuleNotFoundError"),
        ("import urllib.request", "ModuleNotFoundError"),
        ("import os\nos.system('ls')", "AttributeError"),
        ("import os\nos.fork()", "AttributeError"),
    ],
)
def test_a_program_reaches_no_file_network_process_or_thread(program: str, error: str) -> None:
    with pytest.raises(GradstepError, match=f"^{error}"):
        run(program)


def test_the_environment_is_empty_and_input_ends_at_once() -> None:
    assert printed("import os\nprint(dict(os.environ))") == ["{}"]
    with pytest.raises(GradstepError, match=r"^EOFError"):
        run("input()")


def test_sleep_does_not_hold_the_run() -> None:
    # a run's time is its work: sleeping would hold a server thread with no fuel spent
    assert printed("import time\ntime.sleep(10**6)\nprint('done')") == ["done"]


def test_a_loop_without_end_stops_at_its_fuel_deterministically_at_its_line() -> None:
    box = sandbox()
    limits = {"max_nodes": 10, "max_kept_nodes": 10, "max_console_chars": 10, "max_iterations": 1}
    request = json.dumps({"source": "x = 1\nwhile True:\n    x += 1\n", "limits": limits})
    with pytest.raises(Exhausted) as first:
        box.call(request, SMALL_FUEL, 64 * 2**20)
    assert first.value.kind == "limit"
    assert "ran out of time" in first.value.message and "line" in first.value.message
    with pytest.raises(Exhausted) as second:
        box.call(request, SMALL_FUEL, 64 * 2**20)
    assert second.value.message == first.value.message


def test_a_program_that_makes_values_stops_itself_and_keeps_what_it_printed() -> None:
    source = "a = Value(1.0)\nprint('started')\nwhile True:\n    a = a * 1.0\n"
    record = run_record(source, {}, "auto", limits=RunLimits(SMALL_FUEL))
    assert record.error is not None and record.error.kind == "limit"
    assert record.console == ((2, "started"),)
    assert record.error.console == ((2, "started"),)  # the API shows it beside the error


def test_a_run_stops_itself_by_its_fuel_at_the_same_place_on_any_load() -> None:
    # the guest asks the host for the fuel left, not the clock: the same stop every time
    source = "a = Value(1.0)\nk = 0\nwhile True:\n    a = a * 1.0\n    k += 1\n    print(k)\n"
    runs = [runner._call(source, {}, "auto", None, RunLimits(SMALL_FUEL)) for _ in range(3)]
    first, second, third = runs  # the first reads the program; the others get it prepared
    assert first.error is not None and second.error is not None and third.error is not None
    assert "reached gradstep's limit for one run (2,000,000,000 units" in first.error.message
    assert first.error.message == second.error.message and first.console == second.console
    assert second.fuel == third.fuel and 0.75 < second.fuel / SMALL_FUEL < 0.9  # a quarter kept


@pytest.mark.parametrize(
    "program",
    [
        "x = [0] * 10**9",
        "s = 'a' * 10**9",
        "b = bytearray(2**31)",
        "xs = [[0] * 1000 for _ in range(10**6)]",
    ],
)
def test_memory_past_the_limit_is_a_memory_error_inside(program: str) -> None:
    """At a limit of 64 MB (the lists of lists reach the default 512 MB after seconds)."""
    with pytest.raises(GradstepError) as err:
        run(program, limits=RunLimits(memory_mb=64))
    assert err.value.kind in ("limit", "overflow")
    assert "MemoryError" in err.value.message or "OverflowError" in err.value.message


def test_recursion_is_cpythons_and_past_the_stack_a_clear_limit() -> None:
    with pytest.raises(GradstepError, match=r"^RecursionError") as err:
        run("def f(n):\n    return f(n + 1)\nf(0)\n")
    assert err.value.kind == "limit" and err.value.span is not None and err.value.span.line == 2
    with pytest.raises(GradstepError) as deep:
        run("import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)\n")
    assert deep.value.kind == "limit"


def test_nothing_passes_from_one_run_to_the_next() -> None:
    assert printed("import math, random\nmath.pi = 3\nrandom.seed(9)\nprint(math.pi)") == ["3"]
    assert printed("import math, random\nprint(math.pi, random.random())") == [
        f"3.141592653589793 {__import__('random').Random(0).random()}"
    ]


def test_a_program_that_tampers_with_the_recorder_gets_an_error_not_a_crash() -> None:
    # the harness runs in the same interpreter as the program: what it sends back is untrusted
    source = (
        "import engine.guest.harness as h\n"
        "h._record = lambda *a, **k: {'passes': [{'graph': 'nonsense'}], 'drawn': {'pass': 7}}\n"
    )
    with pytest.raises(GradstepError) as err:
        run(source)
    assert err.value.kind == "internal"


def test_a_programs_prepared_code_is_told_once_before_it_runs_and_reused() -> None:
    source = "x = 2.0\ny = x * x + 1\n"
    runner._prepared.clear()
    assert run(source).graph.data[-1] == 5.0
    told = runner._prepared[(source, "auto")]
    assert run(source, {"x": 3.0}).graph.data[-1] == 10.0  # run from what was told
    assert runner._prepared[(source, "auto")] is told


def test_a_program_cannot_tell_prepared_code_for_later_runs() -> None:
    # the host keeps the first code told in a run, which the harness tells before the program
    # runs: what the program tells afterwards is dropped
    source = "import engine.guest.harness as h\nh.prepared('bogus')\nx = Value(2.0)\ny = x * x\n"
    runner._prepared.clear()
    assert run(source).graph.data[-1] == 4.0
    assert runner._prepared[(source, "auto")] != "bogus"
    assert run(source, {}).graph.data[-1] == 4.0


def test_a_record_too_large_to_read_is_refused() -> None:
    source = "import sys\nsys.stdout.lines.extend([(1, 'x' * 10**6)] * 100)\n"
    with pytest.raises(GradstepError) as err:
        run(source)
    assert err.value.kind == "limit" and "record" in err.value.message


def test_exit_stops_the_program_with_a_note() -> None:
    program = run("a = Value(2.0)\nb = a * a\nexit()\nc = b * 3\n")
    assert any("called exit()" in note for note in program.notes)
    assert program.graph.data[program.graph.output] == 4.0


def test_a_chain_of_a_hundred_thousand_values_is_made_and_left_without_a_trap() -> None:
    # freeing it at the end would recurse past the sandbox's stack: the run's objects are left
    source = "a = Value(1.0)\nfor i in range(100_000):\n    a = a * 1.0\nprint('ok')"
    record = run_record(source, {}, "auto")
    assert record.error is None and record.console == ((4, "ok"),)
    assert record.drawn is not None and record.drawn.size > 100_000  # counted, too large to keep
