"""gradstep's web app: the engine's traces drawn with Graphviz and served over FastAPI."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gradstep")  # pyproject.toml's, as installed
except PackageNotFoundError:  # run from a clone that was never installed
    __version__ = "unknown"
