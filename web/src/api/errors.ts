/**
 * Roost errors in words. Every error a Roost service returns carries a
 * google.rpc.ErrorInfo whose reason names an ErrorReason value; this reads it
 * from a ConnectError and says what it means to a player.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../gen/google/rpc/error_info_pb.js";

/** The machine-readable part of a failed call. */
export interface RoostError {
  code: Code;
  /** e.g. "ERROR_REASON_STALE_VERSION"; "" when the error carried no ErrorInfo. */
  reason: string;
  metadata: Record<string, string>;
  message: string;
}

/** Decode any thrown value into a RoostError. */
export function decodeError(err: unknown): RoostError {
  const ce = ConnectError.from(err);
  const info = ce.findDetails(ErrorInfoSchema)[0];
  return {
    code: ce.code,
    reason: info?.reason ?? "",
    metadata: { ...(info?.metadata ?? {}) },
    message: ce.rawMessage,
  };
}

const SENTENCES: Record<string, string> = {
  ERROR_REASON_INVALID_REQUEST: "The request was not understood.",
  ERROR_REASON_INVALID_OPTIONS: "Those game options are not valid.",
  ERROR_REASON_GAME_NOT_FOUND: "This game does not exist any more (or never did).",
  ERROR_REASON_TOKEN_MISSING: "This browser holds no seat in this game.",
  ERROR_REASON_TOKEN_INVALID: "The seat stored in this browser does not belong to this game.",
  ERROR_REASON_STALE_VERSION:
    "Someone moved before your choice arrived; the board has been refreshed, choose again.",
  ERROR_REASON_NOT_YOUR_TURN: "It is not your turn to decide.",
  ERROR_REASON_GAME_OVER: "The game has ended.",
  ERROR_REASON_ILLEGAL_ACTION: "That move is not allowed now.",
  ERROR_REASON_UNKNOWN_ACTION: "That choice is no longer on offer; choose again.",
  ERROR_REASON_REQUEST_ID_REUSED: "That request was already sent with a different choice.",
  ERROR_REASON_STORE_UNAVAILABLE: "The server cannot reach its storage; retrying shortly.",
  ERROR_REASON_OVERLOADED: "The server is busy; retrying shortly.",
  ERROR_REASON_STORE_FULL: "The server is out of room for games right now.",
  ERROR_REASON_VERSION_OUT_OF_RANGE: "The game is behind the version asked for.",
  ERROR_REASON_DRAINING: "The server is restarting; reconnecting.",
  ERROR_REASON_WATCH_BEHIND: "The game moved faster than this page; catching up.",
  ERROR_REASON_UNKNOWN_GAME: "The matchmaker does not know that game.",
  ERROR_REASON_TICKET_NOT_FOUND: "That queue ticket is gone.",
  ERROR_REASON_TICKET_CLOSED: "That queue ticket can no longer change.",
  ERROR_REASON_IDENTITY_INVALID: "The server refused this page's sign-in; sign in again or reload for a new guest.",
  ERROR_REASON_IDENTITY_REQUIRED: "This server plays only with signed-in players; sign in first.",
  ERROR_REASON_IDENTITY_MISMATCH: "You can only queue and play as yourself (your signed-in player id).",
  ERROR_REASON_VERIFIED_IDENTITY_REQUIRED: "Only signed-in players (not guests) can do that here.",
  ERROR_REASON_IDENTITY_PROVIDER_UNAVAILABLE: "The sign-in service cannot be reached; retrying shortly.",
};

/** A sentence for a player: what went wrong and what to do. */
export function explain(err: unknown): string {
  const e = decodeError(err);
  let text = SENTENCES[e.reason];
  if (!text) {
    text =
      e.code === Code.Unavailable
        ? "The server cannot be reached; retrying."
        : e.message || "Something went wrong.";
  }
  // A refused sign-in says why (expired, wrong signature, ...): the server's words.
  const rule = e.reason === "ERROR_REASON_IDENTITY_INVALID" ? e.message : e.metadata["rule"];
  return rule ? `${text} (${rule})` : text;
}

/** Whether a call failing this way is worth retrying unchanged after a pause. */
export function retryable(err: unknown): boolean {
  const e = decodeError(err);
  return (
    e.code === Code.Unavailable ||
    e.code === Code.ResourceExhausted && e.reason !== "ERROR_REASON_STORE_FULL" ||
    e.code === Code.DeadlineExceeded ||
    e.code === Code.Aborted && e.reason === "ERROR_REASON_DRAINING" ||
    e.code === Code.Unknown ||
    e.code === Code.Internal && e.reason === ""
  );
}
