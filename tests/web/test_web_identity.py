"""Who the web page plays as (issue 28), end to end: the real stack, the built app, Chromium.

The stack of :mod:`tests.web.stack` runs with a guest key (``GUEST_KEY_FILE``,
as ``make run`` gives it), the test identity provider of
:mod:`tests.identity.idp` trusted (its JWKS URL, issuer and audience) and
``IDENTITY_REQUIRED`` set, so the matchmaker serves no anonymous call: a queue
that is seated shows that the page's token reached it and was verified.
web/scripts/e2e.mjs then runs its ``guest`` step (the page's own guest: kept
across reloads, refused when it queues as another id, seated as itself) and
its ``identity`` step (a provider token handed to the page through
``ROOST_CONFIG.identityToken``: accepted by NewGame and the matchmaker; a
token signed by another key refused in words).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from tests.identity.idp import IdentityProvider
from tests.web.stack import Stack, running_stack
from tests.web.test_web_e2e import built_app, pytestmark, run_script  # noqa: F401 (fixture)

SUBJECT = "studio-user-42"


@pytest.fixture(scope="module")
def idp() -> Iterator[IdentityProvider]:
    provider = IdentityProvider()
    try:
        yield provider
    finally:
        provider.close()


@pytest.fixture(scope="module")
def identity_stack(
    built_app: None,  # noqa: F811 (the fixture imported above)
    redis_server_url: str,
    idp: IdentityProvider,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Stack]:
    """Every service with guests, the test provider and identities required."""
    logs = tmp_path_factory.mktemp("web-identity-logs")
    env = {
        **idp.env(),
        "GUEST_KEY_FILE": str(logs / "guest_key.pem"),
        "IDENTITY_REQUIRED": "1",
        "MM_BOT_FILL_AFTER_MS": "1000",
    }
    with running_stack(redis_server_url, logs, env) as running:
        yield running


def test_the_page_plays_as_its_guest_and_as_a_providers_user(
    identity_stack: Stack,
    idp: IdentityProvider,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 28 "Guests without an identity provider" and "Bring your own identity":
    the e2e.mjs guest and identity steps pass against the stack above."""
    monkeypatch.setenv("E2E_IDP_TOKEN", idp.token(SUBJECT))
    monkeypatch.setenv("E2E_IDP_SUBJECT", SUBJECT)
    stranger = ec.generate_private_key(ec.SECP256R1())  # not the provider's key
    monkeypatch.setenv("E2E_IDP_BAD_TOKEN", idp.token(SUBJECT, key=stranger))
    out = Path(tmp_path_factory.mktemp("web-identity-out"))
    status, output = run_script(identity_stack, out, ("guest", "identity"))
    assert status == 0, output[-6000:]
    assert "guest: guest-" in output and "identity: the provider's token played" in output
