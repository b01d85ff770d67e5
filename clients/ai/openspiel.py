"""Roost's games registered with OpenSpiel: ``import clients.ai.openspiel``.

Registers ``roost_skygarden``, ``roost_wingspan``, ``roost_birdscaping`` and
``roost_undertheleaves`` as OpenSpiel Python games, each with the parameters
``players`` (2 by default) and ``seeds`` (65536)::

    import pyspiel
    import clients.ai.openspiel  # noqa: F401
    game = pyspiel.load_game("roost_wingspan(players=3)")

Facts (``GameType``):

* **Sequential.** The engines ask several seats at once in a few phases (a
  simultaneous draft, the cards kept at setup); OpenSpiel sees such a phase as
  the seats deciding one after another, lowest seat first. A waiting seat's
  legal actions never depend on the others' choices there, and a secret choice
  never reaches another seat's information state, so the sequential game is the
  same game.
* **Chance: one explicit chance node, at the start.** Every random event of a
  Roost game (the shuffled decks, bags and tile stacks, the dice of Wingspan's
  bird feeder, the first player) is drawn from the seeded generator kept in the
  engine state, and the engines give no way to set a single draw from outside.
  So the chance node is the seed: ``seeds`` outcomes, each with probability
  ``1 / seeds``; the outcome is passed to the engine's ``setup`` and determines
  every later draw. The distribution over games is the engine's own, restricted
  to ``seeds`` seeds. What a player learns of the draws is what its view shows
  (a card drawn, a die rolled), never the seed: information states leave it out.
  Algorithms that search *perfect-information* trees (``MCTSBot``) clone states
  and so play with the seed, which is to say with a known future deck; the
  imperfect-information ones (IS-MCTS) resample it away with
  ``resample_from_infostate``.
* **Imperfect information, zero-sum, terminal rewards**: each seat's return is
  (seats it beat - seats that beat it) / (seats - 1) by final rank, in [-1, 1].
  Solo games (one seat) are not offered here (OpenSpiel's zero-sum contract);
  the Gymnasium and PettingZoo environments have them.

Actions are the game's fixed discrete space (:mod:`clients.ai.domains`):
``num_distinct_actions`` is its size, ``legal_actions`` the indices of the
legal list, ascending. Observations come from an observer
(:mod:`clients.ai.openspiel_observer`): the observation is the seat's view,
the information state adds the decisions as the seat saw them.
``resample_from_infostate`` draws a state from the seat's information set with
the engine's ``determinize`` (hidden places redrawn from what the seat cannot
see, the generator reseeded), so IS-MCTS runs unchanged.
"""

from __future__ import annotations

from typing import Any

import pyspiel
from roost import games as registry_games

from clients.ai.match import GAMES, Match, engine_of
from clients.ai.openspiel_observer import RoostObserver
from clients.ai.render import text_of
from services.core.engine import Rng

#: Chance outcomes (seeds) of the start, unless the ``seeds`` parameter says otherwise.
SEEDS = 1 << 16
#: OpenSpiel's bound on the length of a game (decisions); no game comes near it.
MAX_GAME_LENGTH = 20_000
#: Each game's title, from the registry.
TITLES = {g.name: g.title for g in registry_games.GAMES}


def game_type(game: str) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of a Roost game (module docstring)."""
    engine = engine_of(game)
    return pyspiel.GameType(
        short_name=f"roost_{game}",
        long_name=f"Roost {TITLES[game]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.max_players,
        min_num_players=max(2, engine.min_players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "seeds": SEEDS},
    )


class RoostGame(pyspiel.Game):
    """A Roost game for OpenSpiel (module docstring)."""

    game: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.players = int(params.get("players", 2))
        self.seeds = int(params.get("seeds", SEEDS))
        kind = game_type(self.game)
        if not kind.min_num_players <= self.players <= kind.max_num_players:
            raise ValueError(
                f"{kind.short_name} takes {kind.min_num_players} to "
                f"{kind.max_num_players} players, not {self.players}"
            )
        if self.seeds < 1:
            raise ValueError("seeds must be at least 1")
        probe = Match(self.game, self.players, 0)
        self.space = probe.space
        self.encoder = probe.encoder
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.n,
            max_chance_outcomes=self.seeds,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(kind, info, {"players": self.players, "seeds": self.seeds})

    def new_initial_state(self) -> RoostState:
        return RoostState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> RoostObserver:
        return RoostObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class RoostState(pyspiel.State):
    """A position of a Roost game: before the seed is drawn, then a Match."""

    def __init__(self, game: RoostGame, match: Match | None = None) -> None:
        super().__init__(game)
        self.roost_game = game
        self.match = match

    def current_player(self) -> int:
        if self.match is None:
            return pyspiel.PlayerId.CHANCE
        if self.match.over:
            return pyspiel.PlayerId.TERMINAL
        return self.match.current

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.match.legal_indices(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        seeds = self.roost_game.seeds
        p = 1.0 / seeds
        return [(seed, p) for seed in range(seeds)]

    def _apply_action(self, action: int) -> None:
        if self.match is None:
            self.match = Match(self.roost_game.game, self.roost_game.players, int(action))
        else:
            self.match.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Seed {action}"
        if self.match is not None and not self.match.over:
            try:
                return self.match.action_of(action, player).label
            except ValueError:
                pass
        return self.roost_game.space.describe(action)

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.over

    def returns(self) -> list[float]:
        if self.match is None:
            return [0.0] * self.roost_game.players
        return self.match.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RoostState:
        """A state of ``player_id``'s information set, drawn with the engine's
        ``determinize`` (hidden places redrawn, the generator reseeded)."""
        if self.match is None:
            return RoostState(self.roost_game)
        seed = int(probability_sampler() * (1 << 53))
        twin = self.match.clone()
        twin.state = twin.engine.determinize(self.match.state, player_id, Rng(seed))
        return RoostState(self.roost_game, twin)

    def __str__(self) -> str:
        if self.match is None:
            return "(the seed is drawn)"
        return text_of(self.match)


def _register() -> None:
    """One module-level subclass per game (pickling finds it by name), registered."""
    for game in GAMES:
        name = f"Roost{game.title()}Game"
        cls = type(name, (RoostGame,), {"game": game, "__module__": __name__})
        globals()[name] = cls
        pyspiel.register_game(game_type(game), cls)


_register()
