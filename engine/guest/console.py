"""What the program prints, a line at a time with the line of the program that printed it (the
``print`` that ended it), cut past a limit with one last line saying so."""

from __future__ import annotations

import io

from engine.guest.places import PROGRAM, getframe


class Console(io.TextIOBase):
    def __init__(self, limit: int) -> None:
        self.lines: list[tuple[int, str]] = []
        self.limit = limit
        self.used = 0
        self.pending = ""
        self.cut = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.cut:
            return len(text)
        parts = (self.pending + text).split("\n")
        self.pending = parts.pop()
        if parts:
            line = _line()
            for part in parts:
                self._add(line, part)
        if len(self.pending) > self.limit:
            self._add(_line(), self.pending)
            self.pending = ""
        return len(text)

    def _add(self, line: int, text: str) -> None:
        if self.cut:
            return
        if self.used + len(text) > self.limit:
            room = max(self.limit - self.used, 0)
            if room:
                self.lines.append((line, text[:room]))
            self.lines.append(
                (line, f"… the rest was cut: gradstep shows {self.limit:,} characters")
            )
            self.cut = True
            return
        self.used += len(text) + 1
        self.lines.append((line, text))

    def close_lines(self) -> list[tuple[int, str]]:
        if self.pending:
            self._add(_line(), self.pending)
            self.pending = ""
        return self.lines


def _line() -> int:
    """The line of the innermost frame of the program (0: printed by no line of it)."""
    f = getframe(1)
    while f is not None and f.f_code.co_filename != PROGRAM:
        f = f.f_back  # type: ignore[assignment]
    return f.f_lineno if f is not None and f.f_lineno is not None else 0
