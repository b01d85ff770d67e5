/**
 * Who the page plays as (identity.ts, issue 28 "Guests without an identity
 * provider" and "Bring your own identity"): the guest identity is issued on the
 * first visit, kept in localStorage between visits, renewed a day before it
 * expires keeping its player id (as `roost login` does), replaced when expired
 * or refused; a provider token given by the embedding page wins; and the
 * interceptor sends the token as `authorization: Bearer …` on every call.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { beforeEach, describe, expect, it } from "vitest";
import { explain } from "../src/api/errors.js";
import { ErrorInfoSchema } from "../src/gen/google/rpc/error_info_pb.js";
import { Matchmaker, TicketStatus } from "../src/gen/roost/matchmaking/v1/matchmaking_pb.js";
import {
  bearerInterceptor,
  claimsOf,
  currentIdentity,
  ensureIdentity,
  type GuestReply,
  type IssueGuest,
  RENEW_BEFORE_MS,
  resetIdentityForTests,
  STORAGE_KEY,
  storedGuest,
} from "../src/identity.js";
import { whoText } from "../src/lobby/who.js";

const DAY = 86_400_000;

/** An unsigned JWT-shaped token stating `sub` and `exp` (the page reads claims, the services verify). */
function jwt(sub: string, expSeconds: number): string {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${part({ alg: "ES256", typ: "JWT" })}.${part({ sub, exp: expSeconds })}.c2ln`;
}

function refused(reason: string, code = Code.Unauthenticated): ConnectError {
  const info = create(ErrorInfoSchema, { reason, domain: "roost" });
  return new ConnectError("bearer token refused: wrong signature", code, undefined, [{ desc: ErrorInfoSchema, value: info }]);
}

/** A fake IssueGuestToken that records what it was called with. */
function issuer(replies: (GuestReply | Error)[]): { issue: IssueGuest; calls: (string | undefined)[] } {
  const calls: (string | undefined)[] = [];
  const issue: IssueGuest = async (previous) => {
    calls.push(previous);
    const next = replies.shift();
    if (!next) throw new Error("no more replies");
    if (next instanceof Error) throw next;
    return next;
  };
  return { issue, calls };
}

function storeGuest(token: string, playerId: string, expiresMs: number): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ token, playerId, expiresMs, guest: true }));
}

beforeEach(() => {
  localStorage.clear();
  resetIdentityForTests();
});

describe("the guest identity", () => {
  it("is issued on the first visit and kept in localStorage", async () => {
    const { issue, calls } = issuer([{ token: "g1", playerId: "guest-1", expiresMs: BigInt(Date.now() + 30 * DAY) }]);
    const who = await ensureIdentity(issue);
    expect(calls).toEqual([undefined]);
    expect(who).toMatchObject({ token: "g1", playerId: "guest-1", guest: true });
    expect(storedGuest()?.playerId).toBe("guest-1");
    expect(currentIdentity()?.token).toBe("g1");
  });

  it("is reused on the next visit without asking the matchmaker", async () => {
    storeGuest("g1", "guest-1", Date.now() + 30 * DAY);
    const { issue, calls } = issuer([]);
    expect((await ensureIdentity(issue))?.playerId).toBe("guest-1");
    expect(calls).toEqual([]);
  });

  it("is renewed with its own token within a day of expiry, keeping its player id", async () => {
    storeGuest("g1", "guest-1", Date.now() + RENEW_BEFORE_MS - 1000);
    const later = Date.now() + 30 * DAY;
    const { issue, calls } = issuer([{ token: "g2", playerId: "guest-1", expiresMs: BigInt(later) }]);
    const who = await ensureIdentity(issue);
    expect(calls).toEqual(["g1"]);
    expect(who).toMatchObject({ token: "g2", playerId: "guest-1", expiresMs: later });
    expect(storedGuest()?.token).toBe("g2");
  });

  it("keeps a still valid token when renewal cannot reach the matchmaker", async () => {
    storeGuest("g1", "guest-1", Date.now() + 1000 * 60);
    const { issue } = issuer([new ConnectError("down", Code.Unavailable)]);
    expect((await ensureIdentity(issue))?.token).toBe("g1");
  });

  it("is replaced by a new guest when expired or refused", async () => {
    storeGuest("old", "guest-old", Date.now() - 1);
    const first = issuer([{ token: "g3", playerId: "guest-3", expiresMs: Date.now() + 30 * DAY }]);
    expect((await ensureIdentity(first.issue))?.playerId).toBe("guest-3");
    expect(first.calls).toEqual([undefined]); // an expired token is not sent

    resetIdentityForTests();
    storeGuest("stale-key", "guest-4", Date.now() + 1000);
    const second = issuer([refused("ERROR_REASON_IDENTITY_INVALID"), { token: "g5", playerId: "guest-5", expiresMs: Date.now() + 30 * DAY }]);
    expect((await ensureIdentity(second.issue))?.playerId).toBe("guest-5");
    expect(second.calls).toEqual(["stale-key", undefined]);
  });

  it("is absent where the deployment issues no guests: the page calls anonymously", async () => {
    const { issue } = issuer([refused("ERROR_REASON_VERIFIED_IDENTITY_REQUIRED", Code.FailedPrecondition)]);
    expect(await ensureIdentity(issue)).toBeUndefined();
    expect(whoText(undefined)).toMatch(/without an identity/);
  });
});

describe("a provider token from the embedding page", () => {
  it("wins over guests and names its subject", async () => {
    const token = jwt("alice@studio", Math.floor(Date.now() / 1000) + 600);
    const { issue, calls } = issuer([]);
    const who = await ensureIdentity(issue, token);
    expect(calls).toEqual([]);
    expect(who).toMatchObject({ token, playerId: "alice@studio", guest: false });
    expect(whoText(who)).toBe("Signed in as alice@studio");
    expect(storedGuest()).toBeUndefined(); // never stored as a guest
  });

  it("can be a function the embedding page provides", async () => {
    const token = jwt("bob", Math.floor(Date.now() / 1000) + 600);
    expect((await ensureIdentity(issuer([]).issue, async () => token))?.playerId).toBe("bob");
  });

  it("reads sub and exp from a JWT, and nothing from garbage", () => {
    expect(claimsOf(jwt("carol", 1700000000))).toEqual({ subject: "carol", expiresMs: 1700000000000 });
    expect(claimsOf("not a token")).toEqual({ subject: "", expiresMs: 0 });
  });
});

describe("the bearer interceptor", () => {
  function matchmaker(issue: IssueGuest, provider?: string, enqueueError?: ConnectError) {
    const seen: { method: string; authorization: string | null }[] = [];
    const transport = createRouterTransport(
      ({ service }) =>
        service(Matchmaker, {
          enqueue(_req, ctx) {
            seen.push({ method: "Enqueue", authorization: ctx.requestHeader.get("authorization") });
            if (enqueueError) throw enqueueError;
            return { ticket: { ticketId: "t1", status: TicketStatus.QUEUED } };
          },
          issueGuestToken(_req, ctx) {
            seen.push({ method: "IssueGuestToken", authorization: ctx.requestHeader.get("authorization") });
            return { token: "never", playerId: "guest-x", expiresMs: 0n };
          },
        }),
      { transport: { interceptors: [bearerInterceptor({ issue, provider: () => provider })] } },
    );
    return { client: createClient(Matchmaker, transport), seen };
  }

  it("sends the guest token on every call, settling it first", async () => {
    const { issue, calls } = issuer([{ token: "g1", playerId: "guest-1", expiresMs: Date.now() + 30 * DAY }]);
    const { client, seen } = matchmaker(issue);
    await Promise.all([client.enqueue({ game: "undertheleaves" }), client.enqueue({ game: "wingspan" })]);
    expect(calls).toEqual([undefined]); // one guest for both calls
    expect(seen).toEqual([
      { method: "Enqueue", authorization: "Bearer g1" },
      { method: "Enqueue", authorization: "Bearer g1" },
    ]);
  });

  it("sends the provider's token instead", async () => {
    const token = jwt("alice", Math.floor(Date.now() / 1000) + 600);
    const { client, seen } = matchmaker(issuer([]).issue, token);
    await client.enqueue({ game: "undertheleaves" });
    expect(seen[0]?.authorization).toBe(`Bearer ${token}`);
  });

  it("lets IssueGuestToken through with only its own header (no wait on itself)", async () => {
    const { client, seen } = matchmaker(issuer([]).issue);
    await client.issueGuestToken({}, { headers: { authorization: "Bearer renew-me" } });
    await client.issueGuestToken({});
    expect(seen).toEqual([
      { method: "IssueGuestToken", authorization: "Bearer renew-me" },
      { method: "IssueGuestToken", authorization: null },
    ]);
  });

  it("calls anonymously without an identity, and forgets a guest token a service refuses", async () => {
    const anonymous = matchmaker(issuer([new ConnectError("off", Code.FailedPrecondition)]).issue);
    await anonymous.client.enqueue({ game: "undertheleaves" });
    expect(anonymous.seen[0]?.authorization).toBeNull();

    resetIdentityForTests();
    const { issue } = issuer([{ token: "g1", playerId: "guest-1", expiresMs: Date.now() + 30 * DAY }]);
    const { client } = matchmaker(issue, undefined, refused("ERROR_REASON_IDENTITY_INVALID"));
    await expect(client.enqueue({ game: "undertheleaves" })).rejects.toThrow(/wrong signature/);
    expect(storedGuest()).toBeUndefined();
    expect(currentIdentity()).toBeUndefined();
  });

  it("explains a refused sign-in in words, with the server's reason", () => {
    expect(explain(refused("ERROR_REASON_IDENTITY_INVALID"))).toBe(
      "The server refused this page's sign-in; sign in again or reload for a new guest. (bearer token refused: wrong signature)",
    );
    expect(explain(refused("ERROR_REASON_IDENTITY_MISMATCH", Code.PermissionDenied))).toMatch(/as yourself/);
  });
});
