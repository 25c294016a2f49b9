"""gradstep's web app: the engine's traces drawn with Graphviz and served over FastAPI."""
