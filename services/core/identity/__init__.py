"""Who is calling: bearer identities verified against an identity provider's
published keys (JWKS) or Roost's own guest key, and limits per identity and
per peer kept in Redis.

* :mod:`.settings` — the ``IDENTITY_*`` / ``GUEST_*`` / ``LIMIT_*`` settings;
* :mod:`.verifier` — :class:`~.verifier.Verifier`, the step a servicer calls
  to learn the caller's verified identity (or None when no token was sent);
* :mod:`.guest` — the guest key and :func:`~.guest.issue_guest_token`;
* :mod:`.limits` — fixed-window counters shared by every replica;
* :mod:`.errors` — the UNAUTHENTICATED / PERMISSION_DENIED / RESOURCE_EXHAUSTED
  errors, with ``google.rpc.RetryInfo`` on the last.
"""
