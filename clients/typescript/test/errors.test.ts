/**
 * Errors as a client sees them: the status code, and the ErrorInfo reason
 * decoded into roost.common.v1.ErrorReason, for each client mistake a game
 * service refuses. Also: Apply sent again after a lost reply (same request id)
 * is applied once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, ConnectError, type Interceptor, createClient } from "@connectrpc/connect";
import { GameClient, TOKEN_HEADER, connectGame } from "../src/client.js";
import { connectUrl, grpcUrl } from "../src/config.js";
import { errorCode, errorInfo, errorReason } from "../src/errors.js";
import { ErrorReason } from "../src/gen/roost/common/v1/common_pb.js";
import { UnderTheLeaves } from "../src/gen/roost/undertheleaves/v1/service_pb.js";
import { createTransport } from "../src/transport.js";
import { TRANSPORT, UTL, clientFor, unreachable } from "./support.js";

/** Runs `call`, which must fail with `code` and `reason`; returns the error. */
async function refused(
  call: Promise<unknown>,
  code: Code,
  reason: ErrorReason,
): Promise<ConnectError> {
  const err = await call.then(
    () => assert.fail("the call succeeded"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ConnectError, `a ConnectError, not ${String(err)}`);
  assert.equal(Code[errorCode(err)], Code[code], `status code (${err.message})`);
  assert.equal(ErrorReason[errorReason(err)], ErrorReason[reason], "ErrorInfo reason");
  assert.equal(errorInfo(err)?.domain, "roost.games");
  return err;
}

function baseUrl(): string {
  return TRANSPORT === "grpc" ? grpcUrl(UTL) : connectUrl(UTL)!;
}

describe(`errors over ${TRANSPORT}`, { skip: unreachable(UTL) }, () => {
  const client = clientFor(UTL);
  // The generated client itself, for requests the library never sends.
  const raw = createClient(UnderTheLeaves, createTransport(TRANSPORT, baseUrl()));

  async function newGame() {
    const game = await client.newGame(2, 7n);
    const token = (seat: number) => game.credentials.find((c) => c.seat === seat)!.token;
    const actor = game.toAct[0];
    const waiting = actor === 0 ? 1 : 0;
    return { game, token, actor, waiting };
  }

  it("an unknown game is NOT_FOUND", async () => {
    await refused(client.score("nosuchgame0"), Code.NotFound, ErrorReason.GAME_NOT_FOUND);
  });

  it("a player count the game refuses is INVALID_ARGUMENT with INVALID_OPTIONS", async () => {
    await refused(client.newGame(9), Code.InvalidArgument, ErrorReason.INVALID_OPTIONS);
  });

  it("Legal without a token is UNAUTHENTICATED", async () => {
    const { game } = await newGame();
    await refused(
      raw.legal({ gameId: game.gameId }),
      Code.Unauthenticated,
      ErrorReason.TOKEN_MISSING,
    );
  });

  it("Apply with another game's token is PERMISSION_DENIED", async () => {
    const { game, actor } = await newGame();
    const other = await newGame();
    await refused(
      client.apply(game.gameId, other.token(actor), game.version, 0),
      Code.PermissionDenied,
      ErrorReason.TOKEN_INVALID,
    );
  });

  it("Apply on a stale version is ABORTED, with the current version in the metadata", async () => {
    const { game, token, actor } = await newGame();
    const applied = await client.apply(game.gameId, token(actor), game.version, 0);
    const seat = applied.toAct[0];
    const err = await refused(
      client.apply(game.gameId, token(seat), game.version, 0),
      Code.Aborted,
      ErrorReason.STALE_VERSION,
    );
    assert.equal(errorInfo(err)?.metadata.current_version, String(applied.version));
  });

  it("Apply by a seat that is not asked is FAILED_PRECONDITION", async () => {
    const { game, token, waiting } = await newGame();
    await refused(
      client.apply(game.gameId, token(waiting), game.version, 0),
      Code.FailedPrecondition,
      ErrorReason.NOT_YOUR_TURN,
    );
  });

  it("an action id past the legal list is FAILED_PRECONDITION", async () => {
    const { game, token, actor } = await newGame();
    await refused(
      client.apply(game.gameId, token(actor), game.version, 100_000),
      Code.FailedPrecondition,
      ErrorReason.UNKNOWN_ACTION,
    );
  });

  it("an Apply without a choice is INVALID_ARGUMENT", async () => {
    const { game, token, actor } = await newGame();
    await refused(
      raw.apply(
        { gameId: game.gameId, expectedVersion: game.version, requestId: "r1" },
        { headers: { [TOKEN_HEADER]: token(actor) } },
      ),
      Code.InvalidArgument,
      ErrorReason.INVALID_REQUEST,
    );
  });

  it("a request id reused for another decision is ALREADY_EXISTS", async () => {
    const { game, token, actor } = await newGame();
    const legal = await client.legal(game.gameId, token(actor));
    assert.ok(legal.actions.length >= 2, "two legal actions to choose from");
    await client.apply(game.gameId, token(actor), legal.version, 0, "same-id");
    await refused(
      client.apply(game.gameId, token(actor), legal.version, 1, "same-id"),
      Code.AlreadyExists,
      ErrorReason.REQUEST_ID_REUSED,
    );
  });

  it("Watch from a version the game has not reached is OUT_OF_RANGE", async () => {
    const { game } = await newGame();
    const events = client.watch(game.gameId, { fromVersion: game.version + 5n });
    const err = await refused(
      events.next(),
      Code.OutOfRange,
      ErrorReason.VERSION_OUT_OF_RANGE,
    );
    assert.equal(errorInfo(err)?.metadata.current_version, String(game.version));
  });

  it("a lost Apply reply is retried with its request id and applied once", async () => {
    let dropped = 0;
    // The call reaches the service and is applied; its reply is then lost.
    const loseFirstApplyReply: Interceptor = (next) => async (request) => {
      const response = await next(request);
      if (request.method.name === "Apply" && dropped === 0) {
        dropped += 1;
        throw new ConnectError("the connection dropped", Code.Unavailable);
      }
      return response;
    };
    const transport = createTransport(TRANSPORT, baseUrl(), [loseFirstApplyReply]);
    const flaky = new GameClient(connectGame(UTL, transport));
    const { game, token, actor } = await newGame();
    const applied = await flaky.apply(game.gameId, token(actor), game.version, 0);
    assert.equal(dropped, 1, "the first reply was lost");
    assert.equal(applied.version, game.version + 1n, "the retry answers with the first result");
    const state = await client.getState(game.gameId);
    assert.equal(state.version, game.version + 1n, "the decision was applied once");
  });
});
