"""A live classroom (issue 29): a teacher's clicker moves every student's screen, the class
predicts a node's gradient, and the answers come back as a histogram.

``state`` is a class's typed state; ``commands`` the teacher's commands on it, one pure function
each (a snapshot in, the new state and its events out, or a refusal); ``answering`` the rules
of a student's answer; ``views`` what the read routes answer; ``model`` the snapshot a store
keeps and the events; ``program`` runs a class's program (its steps counted, a question's true
gradient) without a layout; ``codes`` makes class codes and teacher keys; ``protocol`` is the
store's interface, with two implementations, ``memory`` (one process, the default) and
``redis_store`` (``GRADSTEP_BROKER_URL``: several workers and servers share classes through
Redis), and ``store.open_store`` chooses one; ``hub`` hands a worker's events to its own
listeners; ``tally`` bins the answers; ``stream`` writes the event stream. The routes
(app/routes/classes.py) parse, authorise, call these and answer."""
