"""micrograd, as the program imports it (``engine.guest.imports``): ``micrograd.engine`` and
``micrograd.nn`` are the program's own classes when it defines them, gradstep's otherwise."""
