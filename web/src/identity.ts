/**
 * Who this page plays as: a bearer token sent as `authorization: Bearer …` on
 * every call to the matchmaker and the game services (see `bearerInterceptor`,
 * installed once in api/transport.ts). The verified subject of the token is the
 * player id the matchmaker seats and rates.
 *
 * Where the token comes from, first match wins:
 * 1. the embedding page's identity provider: `ROOST_CONFIG.identityToken`, a
 *    JWT string, or a function returning one (called at start and again when
 *    the token it gave is within a minute of its expiry), set in `config.js`
 *    or by the page that embeds the app (docs/WEB.md);
 * 2. a guest identity signed by Roost: on the first visit the page asks the
 *    matchmaker for one (`IssueGuestToken`) and keeps it in localStorage
 *    (`roost.identity.v1`), so the next visit plays as the same guest. Like
 *    `roost login`, a guest token less than a day from its expiry is renewed
 *    (IssueGuestToken called with it: the same player id, a new expiry); an
 *    expired or refused one is replaced by a new guest.
 * Without either (a deployment that issues no guests and no provider token)
 * the page calls anonymously, as before.
 */
import { Code, type Interceptor } from "@connectrpc/connect";
import { decodeError } from "./api/errors.js";

/** Who the page is: the token and what it says. */
export interface Identity {
  token: string;
  /** The token's subject: the player id. */
  playerId: string;
  /** When the token expires (Unix ms); 0 when it names no expiry. */
  expiresMs: number;
  /** A guest of Roost (true) or a user of the frontend's identity provider. */
  guest: boolean;
}

/** What IssueGuestToken answers. */
export interface GuestReply {
  token: string;
  playerId: string;
  expiresMs: bigint | number;
}

/** Asks the matchmaker for a guest token; `previous` (a guest token) renews that guest. */
export type IssueGuest = (previous: string | undefined) => Promise<GuestReply>;

/** Where a provider token comes from (see the module docstring). */
export type TokenSource = string | (() => string | Promise<string>);

/** Renew a guest token this long before it expires (as `roost login` does). */
export const RENEW_BEFORE_MS = 86_400_000;
/** Ask a provider's function for a new token this long before the current one expires. */
export const PROVIDER_REFRESH_MS = 60_000;
/** The localStorage key of the guest identity. */
export const STORAGE_KEY = "roost.identity.v1";

let current: Identity | undefined;
let pending: Promise<Identity | undefined> | undefined;
const listeners = new Set<(who: Identity | undefined) => void>();

function decodeSegment(segment: string): unknown {
  const base64 = segment.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** The subject and expiry a JWT states (read, not verified: the services verify it). */
export function claimsOf(token: string): { subject: string; expiresMs: number } {
  try {
    const claims = decodeSegment(token.split(".")[1] ?? "") as { sub?: unknown; exp?: unknown };
    return {
      subject: typeof claims.sub === "string" ? claims.sub : "",
      expiresMs: typeof claims.exp === "number" ? claims.exp * 1000 : 0,
    };
  } catch {
    return { subject: "", expiresMs: 0 };
  }
}

/** The stored guest identity, undefined when absent, unreadable or expired. */
export function storedGuest(now = Date.now()): Identity | undefined {
  try {
    const data = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Identity | null;
    if (!data || typeof data.token !== "string" || !data.token || !(data.expiresMs > now)) return undefined;
    return { token: data.token, playerId: String(data.playerId), expiresMs: data.expiresMs, guest: true };
  } catch {
    return undefined;
  }
}

function saveGuest(who: Identity): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(who));
  } catch {
    // A full localStorage only costs a new guest next visit.
  }
}

/** Forget the stored guest (its token was refused); the next `ensureIdentity` gets a new one. */
export function forgetGuest(): void {
  localStorage.removeItem(STORAGE_KEY);
  if (current?.guest) {
    pending = undefined;
    set(undefined);
  }
}

function set(who: Identity | undefined): void {
  current = who;
  for (const listen of listeners) listen(who);
}

/** The identity known now (undefined before `ensureIdentity` settles, or anonymous). */
export function currentIdentity(): Identity | undefined {
  return current;
}

/** Call `listen` with every new identity (and now, with the current one); returns the unsubscribe. */
export function onIdentity(listen: (who: Identity | undefined) => void): () => void {
  listeners.add(listen);
  listen(current);
  return () => listeners.delete(listen);
}

async function fromProvider(source: TokenSource): Promise<Identity | undefined> {
  const token = (typeof source === "string" ? source : await source()).trim();
  if (!token) return undefined;
  const claims = claimsOf(token);
  return { token, playerId: claims.subject, expiresMs: claims.expiresMs, guest: false };
}

function guestOf(reply: GuestReply): Identity {
  return { token: reply.token, playerId: reply.playerId, expiresMs: Number(reply.expiresMs), guest: true };
}

async function guest(issue: IssueGuest, now: number): Promise<Identity | undefined> {
  const stored = storedGuest(now);
  if (stored && stored.expiresMs - now > RENEW_BEFORE_MS) return stored;
  try {
    const renewed = guestOf(await issue(stored?.token));
    saveGuest(renewed);
    return renewed;
  } catch (err) {
    if (stored && !isRefusedToken(err)) return stored; // still valid: renew next time
    if (stored) {
      // The stored token is refused (the deployment's guest key changed): a new guest.
      localStorage.removeItem(STORAGE_KEY);
      try {
        const fresh = guestOf(await issue(undefined));
        saveGuest(fresh);
        return fresh;
      } catch {
        return undefined;
      }
    }
    return undefined; // no guests here: anonymous
  }
}

/** Whether a call failed because its bearer token was refused (not a seat token). */
function isRefusedToken(err: unknown): boolean {
  const e = decodeError(err);
  return e.code === Code.Unauthenticated && e.reason === "ERROR_REASON_IDENTITY_INVALID";
}

/**
 * Settle who the page is (see the module docstring): the provider's token when
 * configured, else the stored guest (renewed when due) or a new one. Calls made
 * meanwhile wait for it. `force` settles again (after a refusal, or when a
 * provider token is about to expire).
 */
export function ensureIdentity(issue: IssueGuest, provider?: TokenSource, force = false): Promise<Identity | undefined> {
  if (pending && !force) return pending;
  const now = Date.now();
  pending = (provider !== undefined ? fromProvider(provider) : guest(issue, now)).then(
    (who) => (set(who), who),
    () => (set(undefined), undefined),
  );
  return pending;
}

/** What the interceptor needs: how to settle the identity, and whether one is configured. */
export interface BearerSetup {
  issue: IssueGuest;
  provider: () => TokenSource | undefined;
}

/**
 * A Connect interceptor adding `authorization: Bearer <token>` to every call
 * (unless the call sets its own). It waits for the identity to settle first,
 * except on IssueGuestToken itself, which carries only what its caller set
 * (the guest token to renew). A guest token a service refuses
 * (UNAUTHENTICATED, ERROR_REASON_IDENTITY_INVALID) is forgotten, so the next
 * call settles a new guest.
 */
export function bearerInterceptor(setup: BearerSetup): Interceptor {
  return (next) => async (req) => {
    if (req.method.name === "IssueGuestToken") return next(req);
    const provider = setup.provider();
    let who = await ensureIdentity(setup.issue, provider);
    if (who && provider !== undefined && typeof provider !== "string" && who.expiresMs && who.expiresMs - Date.now() < PROVIDER_REFRESH_MS) {
      who = await ensureIdentity(setup.issue, provider, true);
    }
    if (who && !req.header.has("authorization")) req.header.set("authorization", `Bearer ${who.token}`);
    try {
      return await next(req);
    } catch (err) {
      if (who?.guest && isRefusedToken(err) && who === currentIdentity()) forgetGuest();
      throw err;
    }
  };
}

/** Forget what this module holds in memory (tests). */
export function resetIdentityForTests(): void {
  current = undefined;
  pending = undefined;
  listeners.clear();
}
