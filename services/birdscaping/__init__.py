"""Birdscaping: rules engine (``rules``) and, later, its game service."""
