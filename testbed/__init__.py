"""Real servers and phones for the system tests and the benchmarks: PostgreSQL, gunicorn, HTTP clients.

Nothing here depends on pytest or on the tests, so ``bench/`` and ``tests/`` both import it.
"""
