"""What a program can call or import without defining it: the builtins (``builtins``, with the
``Machine`` that each of them receives, the little of the running program it may use; and
``functions``: print, str, isinstance, sorted and the rest of Python's builtins on every object
a program holds), and the modules it can import (``modules``: random, math, sklearn.datasets,
matplotlib and graphviz ignored, micrograd with its nn prelude; ``npmodule``: numpy's arrays and
np.random; ``nprandom``: numpy's legacy generator, the same numbers for the same seed).
"""
