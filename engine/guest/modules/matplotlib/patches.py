"""matplotlib.patches: shapes learners make as legend handles (``Patch(color=..., label=...)``)
or add to an axes (``plt.Circle``). They keep what they were given; gradstep draws none of
them, and the axes they are added to says so."""

from __future__ import annotations

from typing import Any

__name__ = "matplotlib.patches"  # so that reprs and errors name the module the program imported


class Patch:
    """Any arguments are accepted and kept; ``get_label``/``set_*`` work as on a real patch."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs

    def get_label(self) -> str | None:
        label = self.kwargs.get("label")
        return None if label is None else str(label)

    def get_facecolor(self) -> Any:
        return self.kwargs.get("facecolor", self.kwargs.get("color", self.kwargs.get("fc")))

    def __getattr__(self, name: str) -> Any:
        """``set_alpha``, ``set_color``, ...: each remembers its value and returns None."""
        if name.startswith("_") or not name.startswith("set_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

        def setter(*args: Any, **kwargs: Any) -> None:
            self.kwargs[name[4:]] = args[0] if args else kwargs

        return setter

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.get_label() or ''}>".replace(" >", ">")


class Circle(Patch):
    pass


class Rectangle(Patch):
    pass


class Ellipse(Patch):
    pass


class Polygon(Patch):
    pass


class FancyArrowPatch(Patch):
    pass


class FancyBboxPatch(Patch):
    pass


class Arrow(Patch):
    pass
