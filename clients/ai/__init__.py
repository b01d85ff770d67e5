"""Roost's four games as environments for AI research (docs/AI.md).

* :func:`pettingzoo_env` -- a PettingZoo AEC environment, every seat an agent;
* :func:`gym_env` -- a Gymnasium environment, one seat against Roost's bots;
* :func:`gym_vector_env` -- many Gymnasium environments in one process;
* ``import clients.ai.openspiel`` -- registers ``roost_skygarden``,
  ``roost_wingspan``, ``roost_birdscaping`` and ``roost_undertheleaves``
  with OpenSpiel (``pyspiel.load_game("roost_wingspan(players=3)")``);
* :mod:`clients.ai.remote` -- the same Gymnasium/PettingZoo API on a live
  Roost service over gRPC, and :mod:`clients.ai.policy` to play a trained
  policy with ``roost bots --policy``.

The games run in process on their pure rules packages (``services/<game>/rules``),
the engines the services run; nothing of the platform is imported.
"""

from __future__ import annotations

from typing import Any


def pettingzoo_env(game: str, players: int = 2, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``game`` (:class:`clients.ai.aec.RoostAEC`)."""
    from clients.ai.aec import RoostAEC

    return RoostAEC(game, players, **kwargs)


def gym_env(game: str, players: int = 2, **kwargs: Any) -> Any:
    """A Gymnasium environment of seat 0 of ``game`` (:class:`clients.ai.gym.RoostGym`)."""
    from clients.ai.gym import RoostGym

    return RoostGym(game, players, **kwargs)


def gym_vector_env(game: str, n: int, players: int = 2, **kwargs: Any) -> Any:
    """``n`` Gymnasium environments of ``game`` in one process."""
    from clients.ai.gym import gym_vector_env as build

    return build(game, n, players, **kwargs)


__all__ = ["gym_env", "gym_vector_env", "pettingzoo_env"]
