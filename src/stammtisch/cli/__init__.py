"""The ``stammtisch`` command line."""
