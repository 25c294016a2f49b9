"""Stand-ins for the third-party modules learners import, run inside the sandbox."""
