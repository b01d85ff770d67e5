"""A game's catalogue (the printed facts and English text of its cards and tiles),
fetched once per game and kept under the client's state directory.

Contract: ``GetCatalogue(if_version=V)`` answers ``not_modified`` when the service's
catalogue is still version V, else the whole catalogue with its version. The copy is
kept as ``catalogues/<game>.binpb`` (the binary ``GetCatalogueResponse``), so a later
session asks with its version and reads the file. A service that cannot answer
(an older one without the RPC, or one that is down) leaves the board without the
catalogue's facts rather than failing the session.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import grpc

from clients import sessions
from clients.registry import ServiceInfo

CALL_TIMEOUT = 10.0


def _cache_file(game: str) -> Path:
    return sessions.home() / "catalogues" / f"{game}.binpb"


def _cached(info: ServiceInfo) -> Any | None:
    """The kept GetCatalogueResponse of ``info``'s game, else None."""
    try:
        data = _cache_file(info.name).read_bytes()
    except OSError:
        return None
    try:
        return info.messages().GetCatalogueResponse.FromString(data)
    except Exception:  # a torn or foreign file: fetch again
        return None


def _keep(info: ServiceInfo, reply: Any) -> None:
    path = _cache_file(info.name)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(reply.SerializeToString())
        tmp.replace(path)


def load(info: ServiceInfo, stub: Any, metadata: Any = None) -> Any | None:
    """The game's Catalogue message: the kept copy when the service says it is current,
    else the service's (kept for next time); the kept copy (or None) when the service
    cannot answer."""
    cached = _cached(info)
    request = info.messages().GetCatalogueRequest(if_version=cached.version if cached else "")
    try:
        reply = stub.GetCatalogue(request, metadata=metadata, timeout=CALL_TIMEOUT)
    except grpc.RpcError:
        return cached.catalogue if cached else None
    if reply.not_modified and cached is not None:
        return cached.catalogue
    _keep(info, reply)
    return reply.catalogue


class Lookup:
    """Catalogue entries by id: ``Lookup(catalogue.birds, "bird").get(12)``.

    Missing catalogue or id: ``get`` returns None, so a board still draws."""

    def __init__(self, entries: Any, key: str) -> None:
        self._by_id = {getattr(e, key): e for e in entries or ()}

    def get(self, key: Any) -> Any | None:
        """The entry with id ``key``, else None."""
        return self._by_id.get(key)

    def __len__(self) -> int:
        return len(self._by_id)
