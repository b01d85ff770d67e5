"""The engine conformance suite: one set of checks over every registered game and
every player count it allows (the registry, ``roost.games``, generated from
protos/roost/games.toml), in the way OpenSpiel runs one random simulation test
over every game.

A game gets all of it by being registered: random games to the end, the score
board adding up, determinism per seed, encode/decode and clone round trips, what
a view keeps secret, a finished game refusing everything, the caches against their
plain paths, and the hand-written wire bytes (legal lists, views) against the
protobuf serializer. What only one game has (its score categories, its rounds,
its reasons for refusing) stays in that game's folder.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from roost import games as identities

from services.core.convert import ActionCodec, view_to_proto, view_to_proto_reference
from services.core.engine import Action, Engine, IllegalAction, Rng, ScoreBoard
from tests.engine_trace import random_game_trace

#: Seeds of the random games each check plays.
SEEDS = (1, 2)
#: No game of any registered engine comes near this many decisions.
MAX_DECISIONS = 20_000


@dataclass(frozen=True)
class Case:
    """One registered game at one player count."""

    game: str
    players: int

    @property
    def engine(self) -> Engine[Any]:
        return importlib.import_module(f"services.{self.game}.rules").ENGINE

    def __str__(self) -> str:
        return f"{self.game}-{self.players}p"


CASES = [
    Case(identity.name, players)
    for identity in identities.GAMES
    for players in range(identity.min_players, identity.max_players + 1)
]


def _service_spec(game: str) -> Any:
    return importlib.import_module(f"services.{game}.service").SPEC


def _caches(game: str) -> Any | None:
    try:
        return importlib.import_module(f"services.{game}.rules.caches")
    except ModuleNotFoundError:
        return None


CACHE_CASES = [
    (case, cache)
    for case in CASES
    if (module := _caches(case.game)) is not None
    for cache in sorted(module.KEPT)
]


@dataclass
class Step:
    """One decision of a random game: the state before it, who decided, what."""

    state: Any
    seat: int
    actions: list[Action]
    index: int


class RandomGame:
    """A seeded random game played to its end (a random seat among those to act, so
    simultaneous decisions come in every order), one :class:`Step` per decision.

    Engines decide in place: a step's state is current only until the next step is
    asked for. After the last step, :attr:`final` holds the finished state.
    """

    def __init__(self, case: Case, seed: int) -> None:
        self.case = case
        self.seed = seed
        self.final: Any = None

    def __iter__(self) -> Iterator[Step]:
        engine = self.case.engine
        state = engine.setup(self.case.players, {}, self.seed)
        chooser = Rng(self.seed * 7919 + self.case.players)
        for _ in range(MAX_DECISIONS):
            if engine.is_over(state):
                self.final = state
                return
            seats = engine.to_act(state)
            assert seats, "the game is not over but nobody is to act"
            seat = seats[chooser.below(len(seats))]
            actions = engine.legal(state, seat)
            assert actions, f"seat {seat} is to act but has no legal action"
            step = Step(state, seat, actions, chooser.below(len(actions)))
            yield step
            state = engine.apply(state, seat, actions[step.index])
        pytest.fail(f"{self.case}: no end within {MAX_DECISIONS} decisions")


def random_steps(case: Case, seed: int) -> RandomGame:
    """The steps of a seeded random game (:class:`RandomGame`)."""
    return RandomGame(case, seed)


def final_state(case: Case, seed: int) -> Any:
    """The finished state of :class:`RandomGame`'s game."""
    game = RandomGame(case, seed)
    for _ in game:
        pass
    return game.final


def _check_board_adds_up(board: ScoreBoard, players: int) -> None:
    assert sorted(s.seat for s in board.seats) == list(range(players))
    for seat_score in board.seats:
        assert seat_score.total == sum(seat_score.categories.values()), seat_score


def _check_final_board(board: ScoreBoard, players: int) -> None:
    assert board.final
    _check_board_adds_up(board, players)
    assert all(s.rank >= 1 for s in board.seats)
    assert min(s.rank for s in board.seats) == 1
    if board.solo is not None:
        assert players == 1
        assert board.winners == ([0] if board.solo.won else [])
    else:
        assert board.winners


def _ids(value: object) -> str:
    return str(value)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_the_engine_is_the_registered_game(case: Case) -> None:
    """The engine implements the contract under its registered name and player counts."""
    engine = case.engine
    identity = next(g for g in identities.GAMES if g.name == case.game)
    assert isinstance(engine, Engine)
    assert (engine.name, engine.min_players, engine.max_players) == (
        identity.name,
        identity.min_players,
        identity.max_players,
    )


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_random_games_end_with_a_final_score_board(case: Case) -> None:
    """Random games end: nobody is to act, nothing is legal, the board is final and
    ranks the seats from 1 (a solo game is won or lost against its targets or AI)."""
    engine = case.engine
    for seed in SEEDS:
        state = final_state(case, seed)
        assert engine.is_over(state)
        assert engine.to_act(state) == []
        assert all(engine.legal(state, seat) == [] for seat in range(case.players))
        _check_final_board(engine.score(state), case.players)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_score_boards_add_up_at_every_step(case: Case) -> None:
    """Every seat's total is the sum of its categories, mid-game and at the end."""
    engine = case.engine
    for seed in SEEDS:
        for step in random_steps(case, seed):
            board = engine.score(step.state)
            assert not board.final
            _check_board_adds_up(board, case.players)
        _check_board_adds_up(engine.score(final_state(case, seed)), case.players)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_same_seed_and_choices_give_identical_bytes(case: Case) -> None:
    """Determinism: the same seed and the same choices give byte-identical states at
    every step; another seed gives another game from the start."""
    engine = case.engine

    def trace(seed: int) -> list[bytes]:
        return [engine.encode(step.state) for step in random_steps(case, seed)]

    for seed in SEEDS:
        assert trace(seed) == trace(seed)
    assert engine.encode(engine.setup(case.players, {}, 1)) != engine.encode(
        engine.setup(case.players, {}, 2)
    )


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_decode_inverts_encode_and_plays_on_identically(case: Case) -> None:
    """At every step, decode(encode(s)) encodes to the same bytes, asks the same seats,
    lists the same actions in the same order (action ids are stable), and takes the
    same decision, rebuilt from its key alone, to the same bytes; at every third step
    it also shows every reader the same view."""
    engine = case.engine
    for seed in SEEDS:
        for number, step in enumerate(random_steps(case, seed)):
            data = engine.encode(step.state)
            copy = engine.decode(data)
            assert engine.encode(copy) == data
            assert engine.to_act(copy) == engine.to_act(step.state)
            keys = [a.key() for a in step.actions]
            assert [a.key() for a in engine.legal(copy, step.seat)] == keys
            for reader in [None, *range(case.players)] if number % 3 == 0 else []:
                assert engine.view(copy, reader) == engine.view(step.state, reader)
            chosen = step.actions[step.index]
            after_copy = engine.apply(copy, step.seat, Action(chosen.kind, chosen.args))
            after = engine.apply(engine.decode(data), step.seat, chosen)
            assert engine.encode(after_copy) == engine.encode(after)
        json.loads(engine.encode(final_state(case, seed)))  # stored states are plain JSON


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_clone_is_an_independent_copy_that_plays_as_a_decoded_one(case: Case) -> None:
    """A clone encodes as the original does, plays on as a decoded copy would, and
    deciding on it leaves the original untouched (score previews try every legal
    action on clones)."""
    engine = case.engine
    checked = 0
    for seed in SEEDS:
        for number, step in enumerate(random_steps(case, seed)):
            if number % 5:
                continue
            state = step.state
            before = engine.encode(state)
            copy, decoded = engine.clone(state), engine.decode(before)
            assert engine.encode(copy) == before
            for action in step.actions[:4]:
                trial, reference = engine.clone(copy), engine.clone(decoded)
                engine.apply(trial, step.seat, action)
                engine.apply(reference, step.seat, action)
                assert engine.encode(trial) == engine.encode(reference)
                assert engine.view(trial, step.seat) == engine.view(reference, step.seat)
            assert engine.encode(state) == before == engine.encode(copy)
            checked += 1
    assert checked >= 2


def _values(view: Any) -> Iterator[Any]:
    if isinstance(view, dict):
        for key, value in view.items():
            yield key
            yield from _values(value)
    elif isinstance(view, list | tuple):
        for value in view:
            yield from _values(value)
    else:
        yield view


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_views_keep_the_generator_and_what_a_reader_cannot_see_secret(case: Case) -> None:
    """No view (any seat's, the spectator's; every fourth step) holds the state's
    generator, and a reader's view, legal actions and the seats to act are the same
    in a copy with everything it cannot see redrawn (``determinize``; every ninth
    step), which leaves the state itself untouched: a view depends on nothing hidden
    from its reader."""
    engine = case.engine
    for seed in SEEDS:
        for number, step in enumerate(random_steps(case, seed)):
            if number % 4 and number % 9:
                continue
            state = step.state
            readers = [None, *range(case.players)]
            if number % 4 == 0:
                secret = str(json.loads(engine.encode(state))["rng"])
                for reader in readers:
                    shown = set(map(str, _values(engine.view(state, reader))))
                    assert secret not in shown, f"{reader}'s view holds the generator"
            if number % 9:
                continue
            before = engine.encode(state)
            for reader in readers:
                copy = engine.determinize(state, reader, Rng(seed * 31 + number))
                assert engine.encode(state) == before
                assert engine.view(copy, reader) == engine.view(state, reader)
                assert engine.to_act(copy) == engine.to_act(state)
                if reader is not None:
                    assert [a.key() for a in engine.legal(copy, reader)] == [
                        a.key() for a in engine.legal(state, reader)
                    ]


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_finished_game_refuses_every_action_and_stays_unchanged(case: Case) -> None:
    """After the end, every action that was once legal is refused (IllegalAction)
    for every seat, and the stored bytes do not change."""
    engine = case.engine
    for seed in SEEDS:
        game = random_steps(case, seed)
        once_legal: list[Action] = []
        for step in game:
            once_legal = step.actions[:5]
        state = game.final
        before = engine.encode(state)
        for seat in range(case.players):
            for action in once_legal:
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, action)
        assert engine.encode(state) == before


@pytest.mark.parametrize(("case", "cache"), CACHE_CASES, ids=_ids)
def test_every_cache_gives_what_its_plain_path_gives(case: Case, cache: str) -> None:
    """With a cache switched to its plain path (``caches.plain``), a random game
    stores the same bytes, offers the same actions (keys and labels) and shows the
    spectator the same views after every decision (tests/engine_trace.py)."""
    caches = _caches(case.game)
    assert caches is not None
    seed = SEEDS[0] + case.players
    cached = random_game_trace(case.engine, case.players, seed)
    with caches.plain(cache):
        assert random_game_trace(case.engine, case.players, seed) == cached


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_legal_lists_on_the_wire_equal_the_serializers(case: Case) -> None:
    """The hand-written legal-list bytes (Legal, and Apply's next_actions) parse to
    exactly what the protobuf builder makes, cold and from the heads kept on the
    actions, with ids in order and the labels and typed actions of the engine's."""
    spec = _service_spec(case.game)
    codec = ActionCodec(spec.types.Action)
    for step in random_steps(case, SEEDS[0]):
        actions = step.actions
        response = spec.messages.LegalResponse()
        codec.fill_legal(response.actions, actions)
        for _ in range(2):  # cold, then from the heads kept on the actions
            wired = spec.messages.LegalResponse.FromString(codec.legal_wire(2, actions))
            assert wired == response
            wired = spec.messages.ApplyResponse.FromString(codec.legal_wire(5, actions))
            assert list(wired.next_actions) == list(response.actions)
        for index, (built, action) in enumerate(zip(response.actions, actions, strict=True)):
            assert built.ref.id == index and built.ref.label == action.label
            assert built.action == codec.to_proto(action)
            assert codec.matches(built.action, action)


@pytest.mark.slow  # every reader's view after every decision
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_views_on_the_wire_equal_the_reference_builder(case: Case) -> None:
    """The direct view builder gives exactly what json_format.ParseDict gives, for
    every reader after every decision of a random game at both ends of the player
    range (after every fifth decision between them), and at the end."""
    engine = case.engine
    spec = _service_spec(case.game)
    identity = next(g for g in identities.GAMES if g.name == case.game)
    stride = 1 if case.players in (identity.min_players, identity.max_players) else 5
    game = random_steps(case, SEEDS[0])
    for number, step in enumerate(game):
        if number % stride:
            continue
        for reader in [None, *range(case.players)]:
            view = engine.view(step.state, reader)
            assert view_to_proto(view, spec.types.View) == view_to_proto_reference(
                view, spec.types.View
            )
    for reader in [None, *range(case.players)]:
        view = engine.view(game.final, reader)
        assert view_to_proto(view, spec.types.View) == view_to_proto_reference(
            view, spec.types.View
        )
