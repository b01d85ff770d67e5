"""The protos follow buf's STANDARD style (the yardstick named by the platform issue).

Checked from the compiled descriptors with source info, so no buf binary is needed:
packages are versioned, every message, field, enum, enum value, service and RPC has a
comment, enums start with an ``<ENUM>_UNSPECIFIED = 0`` value and prefix their values,
every RPC has its own ``<Rpc>Request`` / ``<Rpc>Response``, names follow the case rules.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[2]
PROTOS = sorted(
    p.relative_to(ROOT / "protos").as_posix() for p in (ROOT / "protos").rglob("*.proto")
)

# Source-code-info path numbers (descriptor.proto field numbers).
MESSAGE, ENUM, SERVICE = 4, 5, 6
FIELD, NESTED, NESTED_ENUM = 2, 3, 4
ENUM_VALUE, METHOD = 2, 2


@pytest.fixture(scope="module")
def descriptors(tmp_path_factory: pytest.TempPathFactory) -> descriptor_pb2.FileDescriptorSet:
    out = tmp_path_factory.mktemp("desc") / "all.pb"
    well_known = str(resources.files("grpc_tools") / "_proto")
    status = protoc.main([
        "protoc", f"-I{ROOT / 'protos'}", f"-I{well_known}", "--include_source_info",
        f"--descriptor_set_out={out}", *PROTOS,
    ])  # fmt: skip
    assert status == 0
    return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


def _commented(file: descriptor_pb2.FileDescriptorProto) -> set[tuple[int, ...]]:
    return {
        tuple(loc.path)
        for loc in file.source_code_info.location
        if loc.leading_comments.strip() or loc.trailing_comments.strip()
    }


def _snake_upper(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def _check_enum(enum, path, commented, problems, where):
    if (*path,) not in commented:
        problems.append(f"{where}: enum {enum.name} has no comment")
    prefix = _snake_upper(enum.name) + "_"
    if not enum.value or enum.value[0].number != 0 or enum.value[0].name != prefix + "UNSPECIFIED":
        problems.append(f"{where}: enum {enum.name} must start with {prefix}UNSPECIFIED = 0")
    for j, value in enumerate(enum.value):
        if not value.name.startswith(prefix):
            problems.append(f"{where}: {value.name} lacks the prefix {prefix}")
        if (*path, ENUM_VALUE, j) not in commented:
            problems.append(f"{where}: enum value {value.name} has no comment")


def _check_message(message, path, commented, problems, where):
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", message.name):
        problems.append(f"{where}: message {message.name} is not PascalCase")
    if (*path,) not in commented and not message.options.map_entry:
        problems.append(f"{where}: message {message.name} has no comment")
    if message.options.map_entry:
        return
    for i, field in enumerate(message.field):
        if not re.fullmatch(r"[a-z][a-z0-9_]*", field.name):
            problems.append(f"{where}: field {message.name}.{field.name} is not lower_snake_case")
        if (*path, FIELD, i) not in commented:
            problems.append(f"{where}: field {message.name}.{field.name} has no comment")
    for i, nested in enumerate(message.nested_type):
        _check_message(nested, (*path, NESTED, i), commented, problems, where)
    for i, enum in enumerate(message.enum_type):
        _check_enum(enum, (*path, NESTED_ENUM, i), commented, problems, where)


def test_every_proto_follows_the_standard_style(descriptors) -> None:
    """buf STANDARD: versioned packages, comments everywhere, enum zero values and prefixes."""
    problems: list[str] = []
    ours = [f for f in descriptors.file if f.name in PROTOS]
    assert ours, "no protos compiled"
    for file in ours:
        where = file.name
        commented = _commented(file)
        if not re.fullmatch(r"roost\.[a-z]+\.v\d+", file.package):
            problems.append(f"{where}: package {file.package} is not roost.<name>.v<N>")
        directory = "/".join(file.package.split("."))
        if not file.name.startswith(directory + "/"):
            problems.append(f"{where}: file is not in the folder {directory}")
        for i, message in enumerate(file.message_type):
            _check_message(message, (MESSAGE, i), commented, problems, where)
        for i, enum in enumerate(file.enum_type):
            _check_enum(enum, (ENUM, i), commented, problems, where)
        for i, service in enumerate(file.service):
            if (SERVICE, i) not in commented:
                problems.append(f"{where}: service {service.name} has no comment")
            for j, method in enumerate(service.method):
                if (SERVICE, i, METHOD, j) not in commented:
                    problems.append(f"{where}: rpc {method.name} has no comment")
                if method.input_type.rsplit(".", 1)[1] != f"{method.name}Request":
                    problems.append(f"{where}: rpc {method.name} must take {method.name}Request")
                if method.output_type.rsplit(".", 1)[1] != f"{method.name}Response":
                    problems.append(f"{where}: rpc {method.name} must return {method.name}Response")
    assert not problems, "\n".join(problems)


def test_every_game_has_the_same_method_set(descriptors) -> None:
    """DESIGN: the same RPCs in every game service (the seven of play, the
    catalogue, and the game's end: resign, abort, rematch; issue 27)."""
    expected = [
        "NewGame", "GetState", "Legal", "Apply", "Score", "Watch", "GetLog", "GetCatalogue",
        "Resign", "Abort", "OfferRematch", "AcceptRematch",
    ]  # fmt: skip
    games = [f for f in descriptors.file if f.name.endswith("/service.proto")]
    for file in games:
        for service in file.service:
            assert [m.name for m in service.method] == expected, file.name
            watch = next(m for m in service.method if m.name == "Watch")
            assert watch.server_streaming
