"""Birdscaping's value for the greedy lookahead: nothing beyond the score.

Valuing the cards in hand made two lookahead bots draw, tilt and untilt
forever, neither ever playing the card that moves the game toward its end (the
rules set no limit on the game's length), so the lookahead weighs the score alone.
"""

from __future__ import annotations

from clients.bots.greedy import no_potential

#: Nothing beyond the score.
potential = no_potential
