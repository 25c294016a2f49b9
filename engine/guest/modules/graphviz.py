"""graphviz, as a stand-in: learners' ``draw_dot`` functions build a Digraph of their values,
and gradstep draws the graph itself, so this only has to let them run. It keeps what they add
and writes it out as DOT text (``source``, ``str(dot)``) as the real package does; rendering,
viewing and saving do nothing and give ''."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

__name__ = "graphviz"  # so that reprs and errors name the module the program imported
__all__ = ["Digraph", "Graph", "Source", "escape", "nohtml"]
__version__ = "0.20.3"
_KEYWORDS = frozenset({"node", "edge", "graph", "digraph", "subgraph", "strict"})


def _quote(value: Any) -> str:
    """A DOT ID: plain words stay bare, HTML-like labels (``<...>``) keep their brackets."""
    text = str(value)
    if text.lower() in _KEYWORDS:
        return f'"{text}"'
    if text.isidentifier() or text.lstrip("-").replace(".", "", 1).isdigit():
        return text
    if text.startswith("<") and text.endswith(">"):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attrs(label: Any = None, attrs: dict[str, Any] | None = None, **kwargs: Any) -> str:
    items = dict(attrs or {}, **kwargs)
    if label is not None:
        items = {"label": label, **items}
    text = " ".join(f"{key}={_quote(value)}" for key, value in items.items() if value is not None)
    return f" [{text}]" if text else ""


class Graph:
    """An undirected graph; Digraph is the directed one. Any constructor arguments are kept."""

    _keyword = "graph"
    _edge = "--"

    def __init__(
        self,
        name: str | None = None,
        comment: str | None = None,
        filename: str | None = None,
        directory: str | None = None,
        format: str | None = None,
        engine: str | None = None,
        encoding: str | None = "utf-8",
        graph_attr: dict[str, Any] | None = None,
        node_attr: dict[str, Any] | None = None,
        edge_attr: dict[str, Any] | None = None,
        body: Iterable[str] | None = None,
        strict: bool = False,
        **kwargs: Any,
    ) -> None:
        self.name = name
        self.comment = comment
        self.filename = filename
        self.directory = directory
        self.format = format
        self.engine = engine
        self.encoding = encoding
        self.graph_attr = dict(graph_attr or {})
        self.node_attr = dict(node_attr or {})
        self.edge_attr = dict(edge_attr or {})
        self.body = list(body or [])
        self.strict = strict

    def node(self, name: Any, label: Any = None, _attributes: Any = None, **attrs: Any) -> None:
        self.body.append(f"\t{_quote(name)}{_attrs(label, _attributes, **attrs)}\n")

    def edge(
        self,
        tail_name: Any,
        head_name: Any,
        label: Any = None,
        _attributes: Any = None,
        **attrs: Any,
    ) -> None:
        ends = f"{_quote(tail_name)} {self._edge} {_quote(head_name)}"
        self.body.append(f"\t{ends}{_attrs(label, _attributes, **attrs)}\n")

    def edges(self, tail_head_iter: Iterable[Any]) -> None:
        for tail, head in tail_head_iter:
            self.edge(tail, head)

    def attr(self, kw: str | None = None, _attributes: Any = None, **attrs: Any) -> None:
        """attr(rankdir="LR") sets graph attributes; attr("node", shape="box") a default."""
        if kw is None:
            self.body.extend(f"\t{key}={_quote(value)}\n" for key, value in attrs.items())
        else:
            self.body.append(f"\t{kw}{_attrs(None, _attributes, **attrs)}\n")

    @contextmanager
    def _sub(self, graph: Graph) -> Iterator[Graph]:
        yield graph
        self.subgraph(graph)

    def subgraph(self, graph: Graph | None = None, name: str | None = None, **kwargs: Any) -> Any:
        """subgraph(g) adds g; subgraph(name=...) is a context manager giving a new one."""
        if graph is None:
            return self._sub(type(self)(name=name, **kwargs))
        self.body.extend("\t" + line for line in graph._lines("subgraph"))
        return None

    @property
    def source(self) -> str:
        return "".join(self._lines(("strict " if self.strict else "") + self._keyword))

    def _lines(self, head: str) -> list[str]:
        lines = [f"// {self.comment}\n"] if self.comment else []
        lines.append(f"{head} {_quote(self.name)} {{\n" if self.name else f"{head} {{\n")
        for kind, attrs in (("graph", self.graph_attr), ("node", self.node_attr)):
            if attrs:
                lines.append(f"\t{kind}{_attrs(None, attrs)}\n")
        if self.edge_attr:
            lines.append(f"\tedge{_attrs(None, self.edge_attr)}\n")
        return [*lines, *self.body, "}\n"]

    def __str__(self) -> str:
        return self.source

    def __iter__(self) -> Iterator[str]:
        return iter(self.source.splitlines(keepends=True))

    def _nothing(self, *args: Any, **kwargs: Any) -> str:
        """Rendering is gradstep's: no file is written and no program is started."""
        return ""

    render = view = save = pipe = unflatten = _nothing

    def copy(self) -> Graph:
        other = type(self)(name=self.name, comment=self.comment, format=self.format)
        other.graph_attr, other.node_attr = dict(self.graph_attr), dict(self.node_attr)
        other.edge_attr, other.body = dict(self.edge_attr), list(self.body)
        return other

    def clear(self, keep_attrs: bool = False) -> None:
        self.body.clear()
        if not keep_attrs:
            self.graph_attr.clear()
            self.node_attr.clear()
            self.edge_attr.clear()

    def __repr__(self) -> str:
        return f"<graphviz.{type(self).__name__} object at {id(self):#x}>"


class Digraph(Graph):
    """A directed graph, the kind micrograd's ``draw_dot`` builds."""

    _keyword = "digraph"
    _edge = "->"


class Source:
    """DOT text given as is; it too renders nothing."""

    def __init__(self, source: str, *args: Any, **kwargs: Any) -> None:
        self.source = source

    def __str__(self) -> str:
        return self.source

    def _nothing(self, *args: Any, **kwargs: Any) -> str:
        return ""

    render = view = save = pipe = _nothing


def escape(s: str) -> str:
    return s


def nohtml(s: str) -> str:
    return s
