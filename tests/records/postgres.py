"""A throwaway PostgreSQL server for the archive tests: Debian's postgresql
binaries, run as the unprivileged ``postgres`` user (initdb and postgres refuse
root) on a free loopback port in a temporary directory. Skips cleanly where
the binaries (or the user) are absent."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from services.core.redis_server import free_port


def _bin_dir() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


@contextmanager
def postgres_server() -> Iterator[str]:
    """A running PostgreSQL; yields its ``postgresql://`` URL (database ``postgres``)."""
    bindir = _bin_dir()
    if bindir is None:
        pytest.skip("PostgreSQL binaries are not installed")
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("no postgres user to run PostgreSQL as")
    as_user: list[str] = [] if os.geteuid() == user.pw_uid else ["runuser", "-u", "postgres", "--"]
    if as_user and os.geteuid() != 0:
        pytest.skip("cannot run PostgreSQL as the postgres user")
    root = tempfile.mkdtemp(prefix="roost-pg-")
    os.chown(root, user.pw_uid, user.pw_gid)
    data = os.path.join(root, "data")
    port = free_port()
    subprocess.run(
        [*as_user, f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    server = subprocess.Popen(
        [*as_user, f"{bindir}/postgres", "-D", data, "-p", str(port), "-k", root,
         "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    try:
        deadline = time.monotonic() + 30
        while True:
            ready = subprocess.run(
                [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(port)], capture_output=True
            )
            if ready.returncode == 0:
                break
            assert server.poll() is None, "PostgreSQL exited at start"
            assert time.monotonic() < deadline, "PostgreSQL did not start"
            time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        shutil.rmtree(root, ignore_errors=True)
