"""Pass 1, before anything runs: the shape of the program. ``shape`` refuses each construct the
interpreter does not run, with a located error that says what works instead, and finds the names
read that nothing assigns (they must come from ``values``); ``visible`` knows which names a block
binds and which are visible where; ``messages`` is what the language says to the user about the
program itself (refusals, how names read in errors, the conventions for pasted lecture code), in
one place so that the shape check and the evaluator say the same.

Pass 0, the raw text and ``ast.parse``, is ``engine.language.source``: below every part, since
``library.modules`` reads its prelude (micrograd.nn) with it too.
"""
