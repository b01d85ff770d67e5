"""The request fuzz: targets, strategies, a raw caller and the stored-state snapshot.

Every RPC of every service is a :class:`Target`, found from the proto
descriptors (the four games' seven RPCs, the matchmaker's seven, and the health
and reflection services every server registers). Requests are built two ways:

- :func:`requests` draws request messages from the descriptors, field by field:
  any value of the field's type (out-of-range and extreme numbers, numbers no
  enum defines, empty, huge and odd strings), mixed with values that reach past
  the first checks (live game ids, ids of another game's games, versions around
  the current ones, ticket ids, game names, options JSON that is almost right);
- :func:`undecodable_bodies` draws bodies that are no request at all (random
  bytes, truncated messages, invalid wire types, invalid UTF-8 in a string
  field, unterminated groups, lengths past the end).

Calls go through a plain channel with identity serializers, so a body reaches
the server exactly as drawn.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis
from google.protobuf import descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from google.protobuf.message import DecodeError, Message
from google.protobuf.message_factory import GetMessageClass
from google.rpc import error_details_pb2
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_status import rpc_status
from hypothesis import strategies as st
from roost.matchmaking.v1 import matchmaking_pb2 as mm_pb

from services.core.store import events_key, game_key
from services.core.tokens import TOKEN_METADATA_KEY
from services.registry import GAMES, by_name

#: The gRPC status codes a request must never produce.
FORBIDDEN = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
#: How long a server-streaming call is followed before the client cancels it.
STREAM_SECONDS = 0.15
#: Responses of a server-streaming call read before the client cancels it.
STREAM_ITEMS = 3

F = FieldDescriptor


def _identity(data: bytes) -> bytes:
    return data


# ------------------------------------------------------------------ targets


@dataclass(frozen=True)
class Target:
    """One RPC of one server: where it is and what it takes."""

    #: "wingspan", ..., "matchmaking": the server it runs on.
    server: str
    service: str
    method: str
    request: Descriptor
    client_streaming: bool = False
    server_streaming: bool = False
    #: True for Roost's own services (rich statuses on every rejection).
    roost: bool = True

    @property
    def path(self) -> str:
        """The method's gRPC path."""
        return f"/{self.service}/{self.method}"

    @property
    def name(self) -> str:
        """A test id."""
        return f"{self.server}:{self.service.rsplit('.', 1)[1]}.{self.method}"

    def decodes(self, body: bytes) -> bool:
        """Whether ``body`` parses as this method's request."""
        try:
            GetMessageClass(self.request).FromString(body)
        except DecodeError:
            return False
        return True


def _service_targets(server: str, service: Any, roost: bool) -> list[Target]:
    methods: Iterable[MethodDescriptor] = service.methods
    return [
        Target(
            server,
            service.full_name,
            m.name,
            m.input_type,
            m.client_streaming,
            m.server_streaming,
            roost,
        )
        for m in methods
    ]


def game_module(name: str) -> Any:
    """The generated ``service_pb2`` module of a game."""
    package = by_name(name).service_name.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.service_pb2")


def roost_targets() -> list[Target]:
    """Every RPC of the four games and of the matchmaker."""
    out: list[Target] = []
    for entry in GAMES:
        short = entry.service_name.rsplit(".", 1)[1]
        service = game_module(entry.name).DESCRIPTOR.services_by_name[short]
        out += _service_targets(entry.name, service, roost=True)
    matchmaking = importlib.import_module("roost.matchmaking.v1.matchmaking_pb2")
    out += _service_targets(
        "matchmaking", matchmaking.DESCRIPTOR.services_by_name["Matchmaker"], roost=True
    )
    return out


def reflection_services() -> list[Any]:
    """The reflection services a server registers: ``v1alpha``, and ``v1``
    when the platform serves it (its descriptor is then in the default pool)."""
    services = [reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"]]
    try:
        importlib.import_module("services.core.reflection_v1")._register_v1_descriptor()
    except (ImportError, AttributeError):
        return services
    return [*services, descriptor_pool.Default().FindServiceByName(REFLECTION_V1)]


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def platform_targets() -> list[Target]:
    """Health and reflection, on every server."""
    out: list[Target] = []
    reflection = reflection_services()
    for server in [*(g.name for g in GAMES), "matchmaking"]:
        out += _service_targets(
            server, health_pb2.DESCRIPTOR.services_by_name["Health"], roost=False
        )
        for service in reflection:
            out += _service_targets(server, service, roost=False)
    return out


def health_implements_list() -> bool:
    """Whether the servers' health service implements ``List`` (a subclass of
    grpcio's servicer in :mod:`services.core.server` defines it)."""
    server = importlib.import_module("services.core.server")
    return any(
        isinstance(v, type) and issubclass(v, health.HealthServicer) and "List" in vars(v)
        for v in vars(server).values()
    )


# ---------------------------------------------------------------- the world


@dataclass
class LiveGame:
    """A game the fuzz must leave as it is: its id and its seats' tokens."""

    server: str
    game_id: str
    tokens: list[str]


@dataclass
class World:
    """What the strategies draw real values from."""

    games: list[LiveGame]
    ticket_ids: list[str] = field(default_factory=list)

    def game_ids(self, server: str | None = None) -> list[str]:
        """Live game ids (of one server, or all)."""
        return [g.game_id for g in self.games if server is None or g.server == server]

    def tokens(self) -> list[str]:
        """Every live seat token."""
        return [t for g in self.games for t in g.tokens]


# --------------------------------------------------------------- strategies

_INT_RANGES = {
    F.TYPE_INT32: (-(2**31), 2**31 - 1),
    F.TYPE_SINT32: (-(2**31), 2**31 - 1),
    F.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    F.TYPE_INT64: (-(2**63), 2**63 - 1),
    F.TYPE_SINT64: (-(2**63), 2**63 - 1),
    F.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    F.TYPE_UINT32: (0, 2**32 - 1),
    F.TYPE_FIXED32: (0, 2**32 - 1),
    F.TYPE_UINT64: (0, 2**64 - 1),
    F.TYPE_FIXED64: (0, 2**64 - 1),
}

ODD_STRINGS = (
    "",
    " ",
    "x" * 65,
    "x" * 129,
    "\x00",
    "../../etc",
    "{g}",
    "roost:{x}:game",
    "é",
    "١٢٣",  # Arabic-Indic digits: str.isalnum() holds
    "💥",
    "\u202e",
    "null",
    "-1",
)


def _integers(lo: int, hi: int) -> st.SearchStrategy[int]:
    edges = sorted({lo, hi, 0, 1, -1 if lo < 0 else 2, lo + 1, hi - 1})
    return st.one_of(st.sampled_from(edges), st.integers(-3, 300).filter(lambda v: lo <= v <= hi),
                     st.integers(lo, hi))  # fmt: skip


def strings() -> st.SearchStrategy[str]:
    """Any string: random text, one of the odd ones, or a huge one."""
    huge = st.sampled_from([(1_000, "a"), (100_000, "a"), (5_000, "💥")]).map(lambda t: t[1] * t[0])
    return st.one_of(st.text(max_size=24), st.sampled_from(ODD_STRINGS), huge)


def scalar(f: FieldDescriptor) -> st.SearchStrategy[Any]:
    """Any value of a scalar or enum field's type."""
    if f.type in _INT_RANGES:
        return _integers(*_INT_RANGES[f.type])
    if f.type == F.TYPE_BOOL:
        return st.booleans()
    if f.type == F.TYPE_STRING:
        return strings()
    if f.type == F.TYPE_BYTES:
        return st.binary(max_size=32)
    if f.type == F.TYPE_DOUBLE:
        return st.floats()
    if f.type == F.TYPE_FLOAT:
        return st.floats(width=32)
    if f.type == F.TYPE_ENUM:
        known = sorted(v.number for v in f.enum_type.values)
        return st.one_of(
            st.sampled_from(known),
            st.sampled_from([99, -1, 2**31 - 1]),
            _integers(-(2**31), 2**31 - 1),
        )
    raise TypeError(f"no strategy for field type {f.type} ({f.full_name})")


@dataclass(frozen=True)
class Hint:
    """The values of one field (by name) that pass the first checks, and some
    just past their edge. A plausible message draws only the first; any other
    draws from both and from every value of the field's type."""

    valid: st.SearchStrategy[Any]
    edge: st.SearchStrategy[Any]
    #: The field takes only these values, in every message.
    only: bool = False


#: Hints by field name.
Hints = dict[str, Hint]


OPTIONS_JSON = (
    "",
    "{}",
    "[]",
    "null",
    '{"goalSide": "GREEN"}',
    '{"goal_side": "purple"}',
    '{"difficulty": "HARD"}',
    '{"dwellers": 99}',
    '{"allowFlip": "yes"}',
    '{"unknownField": 1}',
    '{"a": 1, "a": 2}',
    '{"goalSide": "\\ud800"}',
    '"\\ud800"',
    "[" * 5_000,
    '{"x":' * 5_000,
    '{"dwellerCards": ["' + "x" * 10_000 + '"]}',
    '{"goal_side": 1e999}',
    "\x00",
)


def hints(world: World, server: str) -> Hints:
    """Per field: values that pass the first checks of ``server``'s RPCs (live
    game and ticket ids, versions around the current ones, known game names),
    and values just past the edge of what those checks allow."""
    own = world.game_ids(server) or ["0"]
    others = [g for g in world.game_ids() if g not in own] or ["1"]
    extremes64 = st.sampled_from([2**63 - 1, -(2**63), -1])
    extremes32 = st.sampled_from([2**31 - 1, -(2**31), -1])
    names = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12)
    return {
        "game_id": Hint(
            st.sampled_from(own),
            st.sampled_from([*others, "nosuchgame0", "x" * 64, "x" * 65, "a-b", "١٢٣"]),
        ),
        "expected_version": Hint(st.integers(1, 6), st.one_of(st.integers(-2, 12), extremes64)),
        "from_version": Hint(st.integers(0, 6), st.one_of(st.integers(-2, 12), extremes64)),
        "limit": Hint(st.integers(0, 5), extremes32),
        "action_id": Hint(st.integers(0, 30), st.one_of(st.integers(30, 5000), extremes32)),
        "request_id": Hint(st.one_of(st.just(""), names), st.sampled_from(["r" * 128, "r" * 129])),
        "players": Hint(st.integers(1, 5), st.one_of(st.integers(-1, 9), extremes32)),
        "seat_names": Hint(
            st.just([]), st.lists(st.sampled_from(["Ann", "", "x" * 65]), max_size=5)
        ),
        "ticket_id": Hint(
            st.one_of(
                st.sampled_from(world.ticket_ids or ["fuzz-ticket-0001"]),
                names.map(lambda n: f"fuzz-{n}-0000"),
            ),
            st.sampled_from(["short", "x" * 65, "a b c d e f", "ticket/0001"]),
        ),
        "game": Hint(
            st.sampled_from([g.name for g in GAMES]),
            st.sampled_from(["chess", "", "WINGSPAN", "matchmaking"]),
        ),
        "options_json": Hint(st.sampled_from(["", "{}"]), st.sampled_from(OPTIONS_JSON)),
        "player_id": Hint(names, st.sampled_from(["x" * 65, "", "a b", "ünï"])),
        "player_counts": Hint(
            st.lists(st.integers(1, 4), min_size=1, max_size=2),
            st.lists(st.integers(-1, 9), max_size=4),
        ),
        "player_ids": Hint(
            st.lists(names, max_size=5),
            st.lists(st.sampled_from(["a", ""]), min_size=500, max_size=501),
        ),
        "party": Hint(
            st.lists(names, min_size=1, max_size=2, unique=True).map(
                lambda ids: [mm_pb.Player(player_id=i) for i in ids]
            ),
            st.lists(st.just(mm_pb.Player(player_id="same")), min_size=2, max_size=9),
        ),
        "kind": Hint(st.sampled_from([0, 1, 2]), st.sampled_from([3, 99, -1])),
        "after_ms": Hint(st.just(3_600_000), st.sampled_from([-1, 0, 2**31 - 1])),
        # Bot fill stays off: no bot games play in the background of the fuzz.
        "enabled": Hint(st.just(False), st.just(False), only=True),
        **(
            {}
            if previews(server)
            else {"with_score_preview": Hint(*[st.just(False)] * 2, only=True)}
        ),
    }


def previews(server: str) -> bool:
    """Whether ``server``'s engine can preview scores (``Engine.determinize``;
    the matchmaker has no such field)."""
    if server not in {g.name for g in GAMES}:
        return True
    spec = importlib.import_module(f"services.{server}.service").SPEC
    return hasattr(spec.engine, "determinize")


def value(
    f: FieldDescriptor, hint: Hints, depth: int, plausible: bool = False
) -> st.SearchStrategy[Any]:
    """A value for field ``f`` (a list for a repeated field, a dict for a map).
    ``plausible``: a hinted field takes only its hint's values."""
    if f.message_type is not None and f.message_type.GetOptions().map_entry:
        key_f, value_f = (
            f.message_type.fields_by_name["key"],
            f.message_type.fields_by_name["value"],
        )
        return st.dictionaries(scalar(key_f), value(value_f, hint, depth - 1), max_size=3)
    hinted = hint.get(f.name)
    if hinted is not None and (plausible or hinted.only):
        return hinted.valid
    one: st.SearchStrategy[Any]
    if f.message_type is not None:
        one = message(f.message_type, hint, depth - 1, plausible)
    else:
        one = scalar(f)
        if hinted is not None and not f.is_repeated:
            one = st.one_of(hinted.valid, hinted.edge, one)
    if f.is_repeated:
        listed = st.lists(one, min_size=1 if plausible else 0, max_size=4)
        return st.one_of(hinted.valid, hinted.edge, listed) if hinted is not None else listed
    return one


def _real_oneofs(descriptor: Descriptor) -> list[Any]:
    """The message's oneofs, without the synthetic one of each proto3
    ``optional`` field (named ``_<field>``, holding only that field)."""
    return [
        o
        for o in descriptor.oneofs
        if not (len(o.fields) == 1 and o.name == f"_{o.fields[0].name}")
    ]


def message(
    descriptor: Descriptor, hint: Hints, depth: int = 3, plausible: bool = False
) -> st.SearchStrategy[Message]:
    """Messages of ``descriptor``: each field set or not, at most one field of
    each oneof, sub-messages down to ``depth``. A *plausible* message sets every
    hinted field (from its hint), every sub-message and one field of each
    oneof, so it reaches past the first checks more often."""
    cls = GetMessageClass(descriptor)
    if depth <= 0:
        return st.just(cls())
    oneofs = _real_oneofs(descriptor)
    in_oneof = {f.name for o in oneofs for f in o.fields}
    required: dict[str, st.SearchStrategy[Any]] = {}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for f in descriptor.fields:
        if f.name in in_oneof:
            continue
        wanted = plausible and (f.name in hint or f.message_type is not None)
        (required if wanted else optional)[f.name] = value(f, hint, depth, plausible)
    choices = []
    for o in oneofs:
        picks = [st.tuples(st.just(f.name), value(f, hint, depth, plausible)) for f in o.fields]
        choices.append(st.one_of(picks) if plausible else st.one_of(st.none(), *picks))

    def build(values: dict[str, Any], chosen: Sequence[tuple[str, Any] | None]) -> Message:
        fields = dict(values)
        for pick in chosen:
            if pick is not None:
                fields[pick[0]] = pick[1]
        return cls(**fields)

    return st.builds(build, st.fixed_dictionaries(required, optional=optional), st.tuples(*choices))


def requests(descriptor: Descriptor, hint: Hints) -> st.SearchStrategy[Message]:
    """Request messages: anything (:func:`message`), or plausible ones."""
    return st.one_of(message(descriptor, hint), message(descriptor, hint, plausible=True))


#: RPCs that end a game when a live seat calls them: sent only without a live
#: seat's token, so the fuzz leaves the live games playable for the tests after it
#: (tests/lifecycle covers them with real seats).
ENDS_GAME = frozenset({"Resign", "Abort"})


def metadata(
    world: World, server: str, method: str = ""
) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    """Call metadata: no token, a live seat's token (of this server's games or
    another's), or a made-up one (printable ASCII, as metadata must be); never a
    live seat's token for :data:`ENDS_GAME`."""
    made_up = [
        st.sampled_from(["", "bogus", "x" * 300]),
        st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40),
    ]
    own = [t for g in world.games if g.server == server for t in g.tokens] or ["t"]
    live = [st.sampled_from(own), st.sampled_from(world.tokens() or ["t"])]
    token = st.one_of(*made_up) if method in ENDS_GAME else st.one_of(*live, *made_up)
    return st.one_of(st.just(()), token.map(lambda t: ((TOKEN_METADATA_KEY, t),)))


# ------------------------------------------------------- undecodable bodies


def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        byte = number & 0x7F
        number >>= 7
        if number:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _string_paths(descriptor: Descriptor, depth: int = 3) -> list[list[FieldDescriptor]]:
    """Paths (outer field first) to every string field, sub-messages included."""
    paths: list[list[FieldDescriptor]] = []
    for f in descriptor.fields:
        if f.type == F.TYPE_STRING:
            paths.append([f])
        elif f.message_type is not None and depth > 0:
            paths += [[f, *rest] for rest in _string_paths(f.message_type, depth - 1)]
    return paths


def _nest(path: Sequence[FieldDescriptor], payload: bytes) -> bytes:
    """``payload`` as the length-delimited innermost field of ``path``."""
    data = payload
    for f in reversed(path):
        data = _varint(f.number << 3 | 2) + _varint(len(data)) + data
    return data


BAD_UTF8 = (b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"ok\x80", b"\xc0\xaf")


def undecodable_bodies(target: Target, hint: Hints) -> st.SearchStrategy[bytes]:
    """Bodies that are not a request of ``target`` (or barely are: random bytes
    and cut messages sometimes still parse, which the caller checks)."""
    valid = message(target.request, hint, depth=2).map(lambda m: m.SerializeToString())
    bodies: list[st.SearchStrategy[bytes]] = [
        st.binary(min_size=1, max_size=64),
        # a message cut short (inside a field, when it has one that long)
        valid.filter(lambda b: len(b) > 1).flatmap(
            lambda b: st.integers(1, len(b) - 1).map(lambda n: b[:n])
        ),
        # a field with wire type 6 or 7 (none exist), after a valid prefix
        st.tuples(valid, st.integers(1, 40), st.sampled_from([6, 7])).map(
            lambda t: t[0] + _varint(t[1] << 3 | t[2])
        ),
        st.sampled_from(
            [
                b"\x00",  # field number 0
                b"\x80",  # a varint that never ends
                b"\x08" + b"\xff" * 10 + b"\x01",  # an eleven-byte varint
                b"\x0a\xff\xff\xff\xff\x0f",  # a length past the end
                b"\x0a\x05ab",  # a length past the end
                b"\x0b" * 200,  # groups that never end, nested 200 deep
                b"\x0c",  # the end of a group never started
                b"\x0b\x14",  # a group ended by another field's end tag
            ]
        ),
    ]
    paths = _string_paths(target.request)
    if paths:
        bodies.append(
            st.tuples(valid, st.sampled_from(paths), st.sampled_from(BAD_UTF8)).map(
                lambda t: t[0] + _nest(t[1], t[2])
            )
        )
    return st.one_of(bodies)


# ------------------------------------------------------------------ calling


@dataclass(frozen=True)
class Outcome:
    """How a call ended: its code, and the ErrorInfo of a rich status."""

    code: grpc.StatusCode
    reason: str = ""
    domain: str = ""
    items: int = 0


def _error_info(error: grpc.RpcError) -> tuple[str, str]:
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except ValueError:  # a status that contradicts its details
        return "", ""
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason, info.domain
    return "", ""


def call(
    channel: grpc.Channel,
    target: Target,
    body: bytes,
    md: tuple[tuple[str, str], ...] = (),
    timeout: float = 10.0,
    stream_seconds: float = STREAM_SECONDS,
) -> Outcome:
    """Send ``body`` to ``target`` as it is. A server stream is read for at most
    ``STREAM_ITEMS`` responses or ``stream_seconds`` (DEADLINE_EXCEEDED then is
    the client's own deadline), then cancelled by the client (counted OK)."""
    kwargs: dict[str, Any] = {"request_serializer": _identity, "response_deserializer": _identity}
    try:
        if not target.server_streaming:
            channel.unary_unary(target.path, **kwargs)(body, metadata=md, timeout=timeout)
            return Outcome(grpc.StatusCode.OK)
        if target.client_streaming:
            stream = channel.stream_stream(target.path, **kwargs)(
                iter([body]), metadata=md, timeout=stream_seconds
            )
        else:
            stream = channel.unary_stream(target.path, **kwargs)(
                body, metadata=md, timeout=stream_seconds
            )
        items = 0
        try:
            for _ in stream:
                items += 1
                if items >= STREAM_ITEMS:
                    break
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED and items:
                return Outcome(grpc.StatusCode.OK, items=items)
            raise
        finally:
            stream.cancel()
        return Outcome(grpc.StatusCode.OK, items=items)
    except grpc.RpcError as error:
        reason, domain = _error_info(error)
        return Outcome(error.code(), reason, domain)


# ----------------------------------------------------------------- snapshots


def snapshot(raw: redis.Redis, game_ids: Sequence[str]) -> list[Any]:
    """Everything stored for each game (its hash and its event stream), as bytes."""
    pipe = raw.pipeline(transaction=False)
    for game_id in game_ids:
        pipe.hgetall(game_key(game_id))
        pipe.xrange(events_key(game_id))
    return pipe.execute()


# ------------------------------------------------------------------- counts


@dataclass
class Tally:
    """Requests by kind (:data:`KINDS`), RPC and status code."""

    counts: Counter[tuple[str, str, str]] = field(default_factory=Counter)

    def add(self, kind: str, target: Target, code: grpc.StatusCode) -> None:
        """Count one request."""
        self.counts[(kind, target.name, code.name)] += 1

    def by_code(self, kind: str | None = None) -> dict[str, int]:
        """Requests by status code (of one kind, or all)."""
        out: Counter[str] = Counter()
        for (k, _rpc, code), n in self.counts.items():
            if kind is None or k == kind:
                out[code] += n
        return dict(out.most_common())

    def as_json(self) -> dict[str, Any]:
        """The figures: totals by code, per kind, per server and per RPC."""
        per_server: dict[str, Counter[str]] = {}
        per_rpc: dict[str, Counter[str]] = {}
        for (kind, rpc, code), n in self.counts.items():
            per_server.setdefault(f"{kind} {rpc.split(':')[0]}", Counter())[code] += n
            per_rpc.setdefault(f"{kind} {rpc}", Counter())[code] += n
        return {
            "requests": sum(self.counts.values()),
            "by_code": self.by_code(),
            **{kind: self.by_code(kind) for kind in KINDS},
            "per_server": {k: dict(v.most_common()) for k, v in sorted(per_server.items())},
            "per_rpc": {k: dict(v.most_common()) for k, v in sorted(per_rpc.items())},
        }


#: Kinds of request: built from the descriptors; raw bodies that do not parse;
#: raw bodies that happen to parse (random bytes, a message cut between fields).
KINDS = ("structured", "raw-undecodable", "raw-decodable")
#: The counts of the session (printed at its end, see conftest.py).
TALLY = Tally()
