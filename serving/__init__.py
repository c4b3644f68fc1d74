"""Serving the app: gunicorn's command line, its hooks and its token-free logger.

The app never imports this package; this package imports the app's settings and its
redaction (``infra``), and gunicorn loads the app by name (``app:create_app()``).
"""
