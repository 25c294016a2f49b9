"""What a run leaves behind. ``recorder`` makes every one of gradstep's values and records the
graph, its calls and the gradient steps after backward(): the ``Program`` that ``parse``
returns. A program that brings its own engine (a learner's own class Value) is watched instead:
``watch`` keeps what its own objects do, ``learner`` their names, inputs and output, the
``OwnProgram``.
"""
