"""The browser port's TLS context, following the mounted certificate.

cert-manager renews a Secret in place; the kubelet swaps the mounted files. The
gRPC port picks renewed files up on new connections (grpc's dynamic server
credentials); this module does the same for Hypercorn, which builds one
:class:`ssl.SSLContext` when the port starts. The listening context's
``sni_callback`` (run by OpenSSL on every ClientHello, with or without SNI)
compares the files' modification times with the pair in use and, when they
changed, builds a new context with the same factory and hands the handshake to
it. A pair that does not load (caught mid-rotation) leaves the last good one in
use; the next handshake tries again.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable


def _stamp(cert_file: str, key_file: str) -> tuple[int, int]:
    return os.stat(cert_file).st_mtime_ns, os.stat(key_file).st_mtime_ns


def reloading_ssl_context(
    make: Callable[[], ssl.SSLContext], cert_file: str, key_file: str
) -> ssl.SSLContext:
    """The context to listen with: ``make()`` (which loads ``cert_file`` and
    ``key_file``), switching each new handshake to a fresh ``make()`` once the
    files changed."""
    listening = make()
    state: dict[str, object] = {"stamp": _stamp(cert_file, key_file), "context": listening}

    def select(ssl_object: ssl.SSLObject, _name: str | None, _context: ssl.SSLContext) -> None:
        try:
            stamp = _stamp(cert_file, key_file)
        except OSError:
            stamp = state["stamp"]  # mid-rotation: keep the pair in use
        if stamp != state["stamp"]:
            try:
                state["context"] = make()
                state["stamp"] = stamp
            except (OSError, ssl.SSLError):
                pass  # a half-written pair: keep the last good one
        current = state["context"]
        if current is not listening:
            assert isinstance(current, ssl.SSLContext)
            ssl_object.context = current

    listening.sni_callback = select  # type: ignore[assignment]
    return listening
