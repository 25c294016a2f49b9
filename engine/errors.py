"""The one error type of gradstep: a message, a kind and where in the source it happened."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A place in the source: 1-based line and columns, end column exclusive."""

    line: int
    column: int
    end_column: int


class GradstepError(ValueError):
    """Bad input or an undefined operation, with its kind and (when known) its source span.

    Kinds: ``domain`` (log(0), 1/0, ...), ``overflow``, ``syntax``, ``name``, ``unsupported``,
    ``assert`` (the program's own assert failed, or its raise ran), ``arity``, ``type``,
    ``limit``, ``layout``.
    """

    def __init__(
        self,
        message: str,
        kind: str = "domain",
        span: Span | None = None,
        console: tuple[tuple[int, str], ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.span = span
        self.console = console  # what the program printed before it stopped here

    def at(self, span: Span | None) -> GradstepError:
        """This error located at ``span``, unless it already knows where it happened."""
        if self.span is None and span is not None:
            self.span = span
        return self

    def to_dict(self) -> dict[str, object]:
        span = self.span
        out: dict[str, object] = {
            "message": self.message,
            "kind": self.kind,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_column": span.end_column if span else None,
        }
        if self.console:
            out["console"] = self.console
        return out
