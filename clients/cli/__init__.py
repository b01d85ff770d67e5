"""The ``roost`` command line."""
