"""A live classroom (issue 29): a teacher's clicker moves every student's screen, the class
predicts a node's gradient, and the answers come back as a histogram.

``codes`` makes class codes and teacher keys; ``model`` is a class's state and what changes it;
``store`` is the interface (a Protocol) with two implementations, ``memory`` (one process, the
default) and ``redis_store`` (``GRADSTEP_BROKER_URL``: several workers and servers share classes
through Redis); ``hub`` hands a worker's events to its own listeners; ``tally`` bins the answers;
``program`` runs a class's program through the pipeline; ``stream`` writes the event stream. The
routes are app/routes/classes.py."""
