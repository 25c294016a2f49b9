"""Short links (``/s/7kq2m9xa``): a view of the stepper stored under a content-addressed id.

``state`` turns a request into the stored mapping of query parameters and names it; ``store`` is
the interface the routes and the CLI use, with one module per backend (``sqlite``, the default,
and ``postgres``); ``ratelimit`` bounds how fast one client may create links."""
