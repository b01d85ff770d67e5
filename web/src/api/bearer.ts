/**
 * The page's identity on the wire: the interceptor every transport of
 * transport.ts installs (`authorization: Bearer …` on each call, see
 * identity.ts), with guests issued by the matchmaker's IssueGuestToken and a
 * provider token taken from config.ts's `identityToken`.
 */
import { createClient } from "@connectrpc/connect";
import { identityToken } from "../config.js";
import { bearerInterceptor, ensureIdentity, type Identity, type IssueGuest } from "../identity.js";
import { MATCHMAKER } from "../registry.js";
import { transportFor } from "./transport.js";

/** How long the page waits for a guest identity before calling without one. */
export const GUEST_TIMEOUT_MS = 10_000;

/** IssueGuestToken through the matchmaker's transport; `previous` (a guest token) renews that guest. */
export const issueGuest: IssueGuest = async (previous) =>
  createClient(MATCHMAKER.descriptor, transportFor(MATCHMAKER.name)).issueGuestToken(
    {},
    // Bounded: every call of the page waits for the identity to settle.
    { headers: previous ? { authorization: `Bearer ${previous}` } : {}, timeoutMs: GUEST_TIMEOUT_MS },
  );

/** The interceptor of every transport. */
export const pageBearer = bearerInterceptor({ issue: issueGuest, provider: identityToken });

/** Settle the page's identity now (the lobby shows it). */
export function pageIdentity(): Promise<Identity | undefined> {
  return ensureIdentity(issueGuest, identityToken());
}
