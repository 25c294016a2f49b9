"""Places in the program's text, read from CPython's frames: the span of the instruction a
frame is running (CPython 3.11+ knows its exact columns), numbered once each; and the calls of
the program's own functions that are running, as call records for folding.

Columns in code objects count UTF-8 bytes; a span counts characters, as the editor does.
"""

from __future__ import annotations

import re
import sys
from types import CodeType, FrameType

PROGRAM = "<program>"  # the file name the program's pieces are compiled with
NN = "<micrograd.nn>"  # gradstep's micrograd.nn: its calls fold, its places are the caller's
TRACKED = frozenset({PROGRAM, NN})
# code that is part of the call it runs in, not a call of its own
TRANSPARENT = frozenset({"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>", "<lambda>"})
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_getframe = sys._getframe


class CallRecord:
    """One call of the program's (a Neuron's ``__call__``, ``MLP(...)``): the values made while
    it runs can fold into one box."""

    __slots__ = ("counters", "id", "name", "parent", "span")

    def __init__(self, id: int, parent: CallRecord | None, name: str, span: int) -> None:
        self.id = id  # in the order the calls began
        self.parent = parent
        self.name = name  # "Neuron" for __call__ and __init__, "Class.method", a function's name
        self.span = span  # where the call is written (a span id)
        self.counters: dict[str, int] | None = None  # the names bound in it, for c, c₁, c₂


def call_name(code: CodeType) -> str:
    parts = code.co_qualname.split(".<locals>.")[-1].split(".")
    if len(parts) >= 2:
        if parts[-1] in ("__init__", "__call__"):
            return parts[-2]
        return f"{parts[-2]}.{parts[-1]}"
    return parts[0]


class Places:
    """Span ids and call records, both computed once per place or call."""

    def __init__(self, source: str) -> None:
        self.lines = LINE_BREAK.split(source)
        self.spans: list[tuple[int, int, int]] = []  # (line, column, end column), 1-based
        self._ids: dict[tuple[int, int, int], int] = {}
        # by id(code): a code object hashes its whole bytecode, each time (a program's module is
        # kilobytes of it); every code here is kept alive by the keys' owners (self.codes)
        self.sites: dict[int, dict[int, int]] = {}
        self._positions: dict[int, list[tuple[int | None, ...]]] = {}
        self.codes: list[CodeType] = []
        # frames of the program seen, by id, with their call records (None: the top level)
        self._seen: dict[int, tuple[FrameType, CallRecord | None]] = {}
        self._seen_limit = 256
        self.frame: FrameType | None = None  # the frame seen last
        self.record: CallRecord | None = None  # its call (None: the top level)
        self.calls = 0
        # the code of a learner's engine class (its operator methods, their closures): its
        # frames are no calls of the program's, and a node's place is the line that called them
        self.engine: set[int] = set()  # ids of the code (held by the class's methods)

    # Spans -------------------------------------------------------------------------------

    def span(self, line: int, column: int, end: int) -> int:
        """The id of a span given in characters."""
        key = (line, column, end)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self.spans)
            self.spans.append(key)
        return found

    def chars(self, line: int, byte_column: int) -> int:
        """A 0-based byte column of ``line`` as a 0-based column in characters."""
        if not 1 <= line <= len(self.lines):
            return byte_column
        text = self.lines[line - 1]
        if text.isascii():
            return byte_column
        return len(text.encode()[:byte_column].decode("utf-8", "ignore"))

    def site(self, frame: FrameType) -> int:
        """The span of the instruction ``frame`` runs: the nearest frame of the program's own
        text (gradstep's micrograd.nn has no place the learner can see)."""
        while frame.f_code.co_filename != PROGRAM:
            back = frame.f_back
            if back is None:
                return self.span(1, 1, 2)
            frame = back
        code, lasti = frame.f_code, frame.f_lasti
        by_code = self.sites.get(id(code))
        if by_code is None:
            by_code = self.sites[id(code)] = {}
            self.codes.append(code)
        found = by_code.get(lasti)
        if found is None:
            found = by_code[lasti] = self._site(code, lasti, frame.f_lineno)
        return found

    def _site(self, code: CodeType, lasti: int, lineno: int | None) -> int:
        positions = self._positions.get(id(code))
        if positions is None:
            positions = self._positions[id(code)] = list(code.co_positions())
            self.codes.append(code)
        k = lasti // 2
        line, end_line, col, end_col = positions[k] if 0 <= k < len(positions) else (None,) * 4
        if line is None or col is None:
            line = lineno or code.co_firstlineno
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            indent = len(text) - len(text.lstrip())
            return self.span(line, indent + 1, max(len(text.rstrip()), indent + 1) + 1)
        start = self.chars(line, col)
        if end_line != line or end_col is None:
            text = self.lines[line - 1] if line <= len(self.lines) else ""
            end = max(len(text.rstrip()), start + 1)
        else:
            end = self.chars(line, end_col)
        return self.span(line, start + 1, max(end, start + 1) + 1)

    def line_span(self, line: int) -> int:
        """A whole line, from its first character to its last (a function's ``def``)."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        indent = len(text) - len(text.lstrip())
        return self.span(line, indent + 1, max(len(text.rstrip()), indent + 1) + 1)

    # Calls --------------------------------------------------------------------------------

    def innermost(self, frame: FrameType | None) -> FrameType | None:
        """The innermost frame of the program (or of micrograd.nn) at or above ``frame``."""
        while frame is not None and frame.f_code.co_filename not in TRACKED:
            frame = frame.f_back
        return frame

    def enter(self, frame: FrameType) -> CallRecord | None:
        """The call record of ``frame``, a frame of the program. Frames seen are kept with their
        records (held, so no frame's id is reused while it is kept): a frame seen before is one
        lookup; a new one walks up to the first frame seen (its caller, mostly)."""
        if frame is self.frame:
            return self.record
        seen = self._seen
        hit = seen.get(id(frame))
        if hit is not None and hit[0] is frame:
            self.frame, self.record = frame, hit[1]
            return hit[1]
        chain: list[FrameType] = []
        f: FrameType | None = frame
        record: CallRecord | None = None
        while f is not None:
            hit = seen.get(id(f))
            if hit is not None and hit[0] is f:
                record = hit[1]
                break
            code = f.f_code
            if code.co_filename in TRACKED:
                chain.append(f)
                if code.co_name == "<module>":
                    break
            f = f.f_back
        for f in reversed(chain):
            code = f.f_code
            if (
                code.co_name != "<module>"
                and code.co_name not in TRANSPARENT
                and (id(code) not in self.engine)
            ):
                caller = f.f_back
                while caller is not None and caller.f_code.co_filename != PROGRAM:
                    caller = caller.f_back
                span = self.site(caller) if caller is not None else self.span(1, 1, 2)
                self.calls += 1
                record = CallRecord(self.calls, record, call_name(code), span)
            seen[id(f)] = (f, record)
        if len(seen) > self._seen_limit:
            self._prune(frame)
        self.frame, self.record = frame, record
        return record

    def _prune(self, frame: FrameType) -> None:
        """Keep the frames still running (those from ``frame`` up): the rest have returned."""
        running = {}
        f: FrameType | None = frame
        while f is not None:
            hit = self._seen.get(id(f))
            if hit is not None and hit[0] is f:
                running[id(f)] = hit
            f = f.f_back
        self._seen = running
        self._seen_limit = max(256, 4 * len(running))

    def outside_engine(self, frame: FrameType) -> FrameType:
        """The innermost frame of the program at or above ``frame`` that is not its engine's."""
        f: FrameType | None = frame
        while f is not None and (
            id(f.f_code) in self.engine or f.f_code.co_filename not in TRACKED
        ):
            f = f.f_back
        return f or frame

    def forget(self) -> None:
        """Between two pieces of the program: no frame is held past its piece."""
        self._seen, self.frame, self.record = {}, None, None


def getframe(depth: int) -> FrameType:
    return _getframe(depth + 1)
