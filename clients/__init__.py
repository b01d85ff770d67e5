"""Roost clients: the ``roost`` CLI, bots and the tournament runner.

Clients talk to the services over gRPC through the generated stubs only; they
never import ``services``.
"""
