"""What the app is built on besides its features: settings, Flask extensions, the ``score`` command, log redaction, and this machine's network address."""
