"""The training lab: configs, the training loop, decision boundaries, one point as a program.

``tape`` and ``replay`` replay a model's recorded graph on a whole batch with numpy: the engine's
one use of a library outside the standard library (docs/design.md)."""
