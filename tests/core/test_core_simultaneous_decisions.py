"""Simultaneous decisions that do not collide, over real gRPC and a real Redis.

The rule (``services/core/pending.py``, ApplyRequest.expected_version): a
seat's decision made on an older version is accepted while that seat's own
pending decision (its legal list) is unchanged, whatever other seats
committed in between; a decision that really is stale is still ABORTED. Each
version is written by exactly one Apply and a retry applies once.

The games' simultaneous phases: Sky Garden's event-card choice, Wingspan's
setup (keep birds, food, bonus card) and Birdscaping's draft.
"""

from __future__ import annotations

import asyncio
import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from clients.tournament.runner import Tournament, TournamentConfig
from services.birdscaping.service import SPEC as BIRDSCAPING
from services.core import pending as rule
from services.core.engine import Action
from services.core.game_service import GameSpec
from services.skygarden.service import SPEC as SKYGARDEN
from services.wingspan.service import SPEC as WINGSPAN
from tests.harness import ServerHandle, game_server
from tests.service_contract import Client, error_reason

SIMULTANEOUS = {"skygarden": SKYGARDEN, "wingspan": WINGSPAN, "birdscaping": BIRDSCAPING}


@pytest.fixture(scope="module", params=sorted(SIMULTANEOUS))
def served(
    request: pytest.FixtureRequest, redis_server_url: str
) -> Iterator[tuple[GameSpec, ServerHandle]]:
    spec = SIMULTANEOUS[request.param]
    with game_server(spec, redis_server_url) as handle:
        yield spec, handle


def _commit_together(
    client: Client,
    game_id: str,
    tokens: dict[int, str],
    seats: list[int],
    version: int,
    rng: random.Random,
) -> dict[int, Any]:
    """Every seat of ``seats`` decides on ``version`` and all Apply at the same
    moment, each twice at once with the same request id (a client retrying while
    its first send is in flight): both sends must get the same reply."""
    choices = {}
    for seat in seats:
        legal = client.legal(game_id, tokens[seat])
        assert legal.version == version
        choices[seat] = rng.randrange(len(legal.actions))
    request_ids = {seat: f"{seat}-{version}-{uuid.uuid4().hex[:8]}" for seat in seats}
    barrier = threading.Barrier(2 * len(seats))
    outcomes: dict[tuple[int, int], Any] = {}

    def commit(seat: int, send: int) -> None:
        barrier.wait()
        try:
            outcomes[seat, send] = client.apply(
                game_id, tokens[seat], version, choices[seat], request_id=request_ids[seat]
            )
        except grpc.RpcError as error:
            outcomes[seat, send] = error

    threads = [
        threading.Thread(target=commit, args=(seat, send)) for seat in seats for send in (0, 1)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for seat in seats:
        if not isinstance(outcomes[seat, 0], grpc.RpcError):
            assert outcomes[seat, 0] == outcomes[seat, 1], "both sends get the first result"
    return {seat: ((outcomes[seat, 0], request_ids[seat]), choices[seat]) for seat in seats}


def test_every_seat_of_a_simultaneous_phase_commits_concurrently_and_all_succeed(
    served: tuple[GameSpec, ServerHandle],
) -> None:
    """Simultaneous decisions do not collide: all seats asked at one version commit
    concurrently on that version and every one succeeds, each on its own version;
    a retry with the same request id returns the first result, a repeat without
    one is ABORTED (its seat's decision has moved on), and the log holds one event
    per version in the same order as Watch."""
    spec, handle = served
    client = Client(handle, spec)
    for players in sorted({2, spec.engine.max_players}):
        _play_with_simultaneous_commits(spec, client, players)


def _play_with_simultaneous_commits(spec: GameSpec, client: Client, players: int) -> None:
    rng = random.Random(5 + players)
    created = client.new_game(players, seed=11 + players)
    game_id = created.game_id
    tokens = {c.seat: c.token for c in created.credentials}
    version, to_act = created.version, list(created.to_act)
    phases = 0
    for _ in range(400):
        if not to_act or phases >= 3:
            break
        if len(to_act) > 1:
            outcomes = _commit_together(client, game_id, tokens, to_act, version, rng)
            failures = {
                s: o for s, ((o, _id), _c) in outcomes.items() if isinstance(o, grpc.RpcError)
            }
            assert not failures, {s: (e.code(), error_reason(e)) for s, e in failures.items()}
            replies = {s: o[0] for s, (o, _c) in outcomes.items()}
            assert sorted(r.version for r in replies.values()) == [
                version + i for i in range(1, len(to_act) + 1)
            ], "one commit per version"
            for seat, ((reply, request_id), choice) in outcomes.items():
                again = client.apply(game_id, tokens[seat], version, choice, request_id=request_id)
                assert again == reply, "a retry returns the first result"
                with pytest.raises(grpc.RpcError) as stale:
                    client.apply(game_id, tokens[seat], version, choice)
                assert stale.value.code() == grpc.StatusCode.ABORTED
                assert error_reason(stale.value) == "ERROR_REASON_STALE_VERSION"
            state = client.state(game_id)
            assert state.version == version + len(to_act), "each decision applied once"
            version, to_act = state.version, list(state.to_act)
            phases += 1
            continue
        seat = to_act[0]
        legal = client.legal(game_id, tokens[seat])
        reply = client.apply(game_id, tokens[seat], version, rng.randrange(len(legal.actions)))
        version, to_act = reply.version, list(reply.to_act)
    assert phases >= 1, f"{spec.name}, {players} players: no simultaneous phase reached"
    log = client.log(game_id).entries
    assert [e.event.version for e in log] == list(range(1, version + 1))
    watched = []
    for item in client.watch(game_id):
        watched.append((item.event.version, item.event.seat, item.event.kind))
        if item.event.version == version:
            break
    assert watched == [(e.event.version, e.event.seat, e.event.kind) for e in log]


def _actions(*labels: str) -> list[Action]:
    return [Action("pick", (("card", i),), label) for i, label in enumerate(labels)]


def test_a_seat_keeps_its_epoch_only_while_its_legal_list_is_unchanged() -> None:
    """The epoch rule: the actor's and newly asked seats' decisions begin at the new
    version; another seat keeps its epoch exactly when its legal list is unchanged,
    and only a decision made at or after its epoch may apply late."""
    lists = {1: _actions("a", "b"), 2: _actions("c")}
    pending: rule.Pending = {0: rule.Epoch(4), 1: rule.Epoch(4), 2: rule.Epoch(3)}
    before = rule.others_before(pending, [0, 1, 2], 0, lambda s: lists[s])
    after_lists = {0: _actions("z"), 1: _actions("a", "b"), 2: _actions("c", "d"), 3: _actions("e")}
    after = rule.after_decision(pending, 5, 0, [0, 1, 2, 3], before, lambda s: after_lists[s])
    assert after[0].since == 5  # the actor: its decision moved on
    assert after[1].since == 4  # unchanged list: keeps its epoch
    assert after[2].since == 5  # another seat's decision changed its list
    assert after[3].since == 5  # newly asked
    assert rule.decode(rule.encode(after, 5), 5) == after
    assert rule.decode(rule.encode(after, 5), 6) is None  # written for another version
    assert rule.may_decide_late(after, 1, 4, 5)
    assert not rule.may_decide_late(after, 1, 3, 5)  # decided before its epoch
    assert not rule.may_decide_late(after, 2, 4, 5)  # its list changed since
    assert not rule.may_decide_late(after, 4, 4, 5)  # not asked
    assert not rule.may_decide_late(None, 1, 4, 5)  # no epochs stored: current version only


#: Sky Garden's greedy bot previews every legal action of its long turns (about 40 ms
#: of CPU a decision): random bots play its simultaneous phases just as well, at a
#: fortieth of the cost, so the tournament never nears its deadline on a loaded machine.
TOURNAMENT_BOTS = {"skygarden": ("random", "random")}


@pytest.mark.parametrize("game", sorted(SIMULTANEOUS))
def test_a_bot_tournament_has_no_aborted_and_one_apply_per_decision(
    game: str, redis_server_url: str
) -> None:
    """Tournaments of well-behaved bots show no ABORTED (simultaneous phases
    included), and the bots learn what to do from Watch (include_legal) and
    Apply's next_actions: one Apply per decision and no Legal call at all in
    the normal course (Legal is only their way to recover)."""
    with game_server(SIMULTANEOUS[game], redis_server_url) as handle:
        config = TournamentConfig(
            game=game, players=2, games=3, concurrency=3,
            bots=TOURNAMENT_BOTS.get(game, ("random", "greedy")),
            target=handle.address, seed=7, game_timeout=600,
        )  # fmt: skip
        results = asyncio.run(Tournament(config).run())
    stats = results.stats
    assert not results.failures
    assert len(results.outcomes) == 3
    assert stats.errors["ABORTED"] == 0, dict(stats.errors)
    decisions = stats.applied
    applies = len(stats.latencies["Apply"])
    legal_calls = len(stats.latencies.get("Legal", []))
    print(f"{game}: {decisions} decisions, {applies} Apply, {legal_calls} Legal calls")
    assert applies == decisions
    assert legal_calls / decisions <= 0.02
