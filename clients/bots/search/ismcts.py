"""Determinized Monte Carlo search over a game's rules engine.

The seat's information set is sampled, not known: each iteration draws a
fresh determinization of the root (``engine.determinize(root, seat, rng)``:
the hidden places redrawn from what the seat cannot see), picks a root action
by UCB1 over the statistics of *all* samples (so the statistics aggregate over
determinizations, as in Perfect Information Monte Carlo with a shared root),
applies it and plays the game forward with the engine for ``depth`` decisions
or to its end, and scores the result from the seat's point of view.

* Playouts are epsilon-greedy: the seat to move tries up to ``sample`` of its
  legal actions (chosen at random) one ply ahead on a determinized copy and
  takes the one that leaves it best placed (:func:`value`), or with
  probability ``epsilon`` a random action. Uniformly random playouts spend
  most of a budget on placements no player would make.
* Every root action is first looked at one ply ahead on one sample; with more
  than ``width`` of them only the ``width`` best are searched (the seat's own
  immediate gain decides; what follows is then searched properly). With a
  ``prior``, the look is the greedy bot's instead (:mod:`clients.bots.greedy`:
  the seat's turn finished greedily, its resources valued by the game's
  potential), and each root action starts with ``prior`` virtual playouts of
  that value: the search plays like the greedy bot until its playouts show
  something better, rather than trading a sound one-turn judgement for the
  noise of a few dozen playouts.
* The value of a state for a seat (:func:`value`) is its score minus the best
  other score (in a solo game: minus the AI's score when there is one), each
  score plus what that seat's resources are worth (the game's ``potential``,
  when the settings have one) while the game is not over, squashed by
  ``tanh(diff / scale)`` into (-1, 1); a finished game adds the
  result: +1 won, -1 lost, 0 drawn, half and half with the margin. Win rate
  is what a bot is judged on; the margin keeps the search informed when every
  line wins (or loses). A solo game against score targets only (no AI) has
  no one to subtract: its margin is the score on a straight line from -1 (no
  points) to +1 (the highest target), not ``tanh(score / scale)``, which
  flattens out long before the targets (in Sky Garden a 47-point and a
  60-point line differed by 0.05) and left the search unable to tell them
  apart. Such a game that misses its targets is worth its margin alone, as it
  was before the end: a loss on top would make every playout that reaches the
  end look worse than any that does not, and the search would stall instead
  of scoring.
* With ``paired`` set, the root candidates are not chosen by UCB1 but played
  in rounds: each round draws one determinization and one random stream and
  plays every candidate from it, and the best mean wins (prior included).
  Comparing actions on the same deck order and the same dice takes most of the
  luck out of the comparison, which a small budget cannot average away.
* The budget is a number of playouts, a time in milliseconds, or both (the
  first reached ends the search). All randomness comes from the
  ``random.Random`` given, so a seeded search with a playout budget is
  deterministic.

The choice is the root action with the most visits; ties go to the best mean,
then to the best value one ply ahead (so a search whose playouts see no
difference plays like the greedy bot), then at random.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clients.bots.greedy import Potential
from clients.bots.greedy.lookahead import outcomes
from services.core.engine import Engine, Rng

#: UCB1 exploration constant for values in [-1, 1].
EXPLORATION = 0.7


@dataclass(frozen=True, slots=True)
class Budget:
    """When a search stops: after ``playouts`` playouts or ``ms`` milliseconds,
    whichever comes first (None: no bound of that kind; at least one is set)."""

    playouts: int | None = None
    ms: float | None = None

    def __post_init__(self) -> None:
        if self.playouts is None and self.ms is None:
            raise ValueError("a budget needs playouts or ms")


@dataclass(frozen=True, slots=True)
class Settings:
    """How a search plays forward and judges states (see the module docstring)."""

    #: Decisions played after the root action before the state is scored.
    depth: int = 12
    #: Candidates a playout's mover looks at one ply ahead.
    sample: int = 6
    #: Probability that a playout's mover plays at random instead.
    epsilon: float = 0.1
    #: Root actions searched at most (the rest are pruned one ply ahead).
    width: int = 8
    #: Score difference that is worth tanh(1) ≈ 0.76 of a win.
    scale: float = 8.0
    #: What a seat's resources are worth beyond its score (None: nothing).
    potential: Potential | None = None
    #: Virtual playouts given to each root action's greedy value (0: no greedy look).
    prior: int = 0
    #: Paired playouts: every candidate in turn on the same sample and random stream,
    #: the best mean chosen (instead of UCB1 and the most visits).
    paired: bool = False


@dataclass(slots=True)
class Result:
    """What a search found: the chosen index into the root's legal actions, and
    per root action searched its visits and mean value."""

    choice: int
    visits: dict[int, int] = field(default_factory=dict)
    means: dict[int, float] = field(default_factory=dict)
    playouts: int = 0
    elapsed_ms: float = 0.0


def value(
    engine: Engine[Any], state: Any, seat: int, scale: float, potential: Potential | None = None
) -> float:
    """How well ``seat`` stands in ``state``, in [-1, 1] (see the module docstring)."""
    board = engine.score(state)
    own = 0.0
    best_other: float | None = None
    for entry in board.seats:
        total = entry.total
        if potential is not None and not board.final:
            total += potential(state, entry.seat)
        if entry.seat == seat:
            own = total
        elif best_other is None or total > best_other:
            best_other = total
    if board.solo is not None and board.solo.opponent_score is not None:
        best_other = board.solo.opponent_score
    targets = board.solo.targets if board.solo is not None else ()
    if board.solo is not None and board.solo.opponent_score is None and targets:
        margin = max(-1.0, min(1.0, 2.0 * own / targets[-1] - 1.0))
    else:
        margin = math.tanh((own - (best_other or 0)) / scale)
    if not board.final:
        return margin
    if board.solo is not None and board.solo.opponent_score is None and not board.solo.won:
        return margin  # a score target missed: the score alone, as before the end
    if board.solo is not None:
        outcome = 1.0 if board.solo.won else -1.0
    else:
        winners = board.winners
        outcome = 0.0 if seat in winners and len(winners) > 1 else 1.0 if seat in winners else -1.0
    return 0.5 * outcome + 0.5 * margin


def _seed(rng: random.Random) -> Rng:
    return Rng(rng.getrandbits(64))


def one_ply(
    engine: Engine[Any],
    state: Any,
    seat: int,
    actions: list[Any],
    rng: random.Random,
    scale: float,
    potential: Potential | None = None,
) -> list[float]:
    """The value for ``seat`` right after each action, each on its own determinized copy."""
    out = []
    for action in actions:
        copy = engine.determinize(state, seat, _seed(rng))
        engine.apply(copy, seat, action)
        out.append(value(engine, copy, seat, scale, potential))
    return out


def playout(
    engine: Engine[Any], state: Any, root_seat: int, settings: Settings, rng: random.Random
) -> float:
    """Play ``state`` forward in place (see the module docstring); its value for ``root_seat``."""
    for _ in range(settings.depth):
        if engine.is_over(state):
            break
        mover = engine.to_act(state)[0]
        actions = engine.legal(state, mover)
        if len(actions) == 1 or rng.random() < settings.epsilon:
            action = actions[rng.randrange(len(actions))]
        else:
            candidates = (
                rng.sample(actions, settings.sample) if len(actions) > settings.sample else actions
            )
            values = one_ply(
                engine, state, mover, candidates, rng, settings.scale, settings.potential
            )
            action = candidates[max(range(len(values)), key=values.__getitem__)]
        engine.apply(state, mover, action)
    return value(engine, state, root_seat, settings.scale, settings.potential)


def search(
    engine: Engine[Any],
    root: Any,
    seat: int,
    budget: Budget,
    rng: random.Random,
    settings: Settings = Settings(),
    clock: Callable[[], float] = time.perf_counter,
) -> Result:
    """The root action to play (an index into ``engine.legal(root, seat)``)."""
    started = clock()
    deadline = None if budget.ms is None else started + budget.ms / 1000
    actions = engine.legal(root, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no decision to make")
    if len(actions) == 1:
        return Result(0, {0: 0}, {0: 0.0})
    first = _first_look(engine, root, seat, actions, rng, settings)
    jitter = [rng.random() for _ in actions]
    candidates = sorted(range(len(actions)), key=lambda i: (-first[i], jitter[i]))
    candidates = candidates[: settings.width]
    visits = dict.fromkeys(candidates, settings.prior)
    totals = {i: settings.prior * first[i] for i in candidates}
    done = 0
    paired: list[int] = []
    while True:
        if budget.playouts is not None and done >= budget.playouts:
            break
        if deadline is not None and done > 0 and clock() >= deadline:
            break
        if settings.paired:
            if not paired:
                paired = list(candidates)
                world, stream = engine.determinize(root, seat, _seed(rng)), rng.getrandbits(64)
            index = paired.pop()
            sample = engine.clone(world)
            playout_rng = random.Random(stream)
        else:
            index = _select(candidates, visits, totals, rng)
            sample = engine.determinize(root, seat, _seed(rng))
            playout_rng = rng
        engine.apply(sample, seat, actions[index])
        totals[index] += playout(engine, sample, seat, settings, playout_rng)
        visits[index] += 1
        done += 1
    means = {i: totals[i] / visits[i] for i in candidates if visits[i]}
    if settings.paired:
        choice = max(candidates, key=lambda i: (means.get(i, -2.0), first[i], jitter[i]))
    else:
        choice = max(candidates, key=lambda i: (visits[i], means.get(i, -2.0), first[i], jitter[i]))
    return Result(choice, visits, means, done, (clock() - started) * 1000)


def _first_look(
    engine: Engine[Any], root: Any, seat: int, actions: list[Any], rng: random.Random, s: Settings
) -> list[float]:
    """Each root action's value at a first look: one ply ahead, or with a prior the
    greedy bot's one-turn lookahead (see the module docstring)."""
    if not s.prior:
        return one_ply(engine, root, seat, actions, rng, s.scale, s.potential)
    potential = s.potential or (lambda state, seat: 0.0)
    return [
        value(engine, after, seat, s.scale, s.potential)
        for after in outcomes(engine, root, seat, actions, rng, potential)
    ]


def _select(
    candidates: list[int],
    visits: dict[int, int],
    totals: dict[int, float],
    rng: random.Random,
) -> int:
    """UCB1 over the root candidates (virtual playouts of a prior included); an
    unvisited one first (in candidate order)."""
    for index in candidates:
        if not visits[index]:
            return index
    log_n = math.log(max(sum(visits.values()), 1))
    best, best_score = candidates[0], -math.inf
    for index in candidates:
        n = visits[index]
        score = totals[index] / n + EXPLORATION * math.sqrt(log_n / n) + rng.random() * 1e-9
        if score > best_score:
            best, best_score = index, score
    return best
