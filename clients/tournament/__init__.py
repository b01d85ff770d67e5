"""Tournaments and load runs: K games end to end over gRPC, measured.

:mod:`.runner` plays the games (directly on a game service, or through the
matchmaker), :mod:`.report` turns the measurements into tables and JSON.
"""
