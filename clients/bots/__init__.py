"""Bots: remote gRPC clients that play seats like any player.

A bot holds a seat token, follows the game's Watch stream, and when its seat
is asked to decide it calls Legal, chooses, and Applies. One process plays many
seats in many games at once (asyncio, ``grpc.aio``): see :mod:`.player`.
Policies live in :mod:`.policies`.
"""
