/**
 * CORS on the Connect endpoint: a browser's preflight for a call with a seat
 * token is allowed, and a cross-origin call's reply lets the page read the
 * status headers. Runs with the connect and grpc-web transports only (gRPC
 * over HTTP/2 is not a browser protocol).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { connectUrl } from "../src/config.js";
import { ScoreRequestSchema } from "../src/gen/roost/undertheleaves/v1/service_pb.js";
import { TRANSPORT, UTL } from "./support.js";

/** The page origin the preflight claims (ROOST_TS_CORS_ORIGIN, else a local dev server). */
const ORIGIN = process.env.ROOST_TS_CORS_ORIGIN || "http://localhost:5173";

/** Header names of a comma-separated list, lower case. */
function names(value: string | null): string[] {
  return (value ?? "").split(",").map((h) => h.trim().toLowerCase());
}

const url = connectUrl(UTL);
const skip =
  TRANSPORT === "grpc"
    ? "CORS is for the browser protocols (connect, grpc-web)"
    : url === undefined
      ? "no Connect endpoint (CONNECT_ADDR_UNDERTHELEAVES)"
      : false;

describe("CORS preflight", { skip }, () => {
  const path = `${url}/${UTL.typeName}/Apply`;
  const requestHeaders =
    TRANSPORT === "connect"
      ? ["content-type", "connect-protocol-version", "connect-timeout-ms", "x-seat-token"]
      : ["content-type", "x-grpc-web", "x-user-agent", "grpc-timeout", "x-seat-token"];

  it("allows a call with a seat token from the page's origin", async () => {
    const reply = await fetch(path, {
      method: "OPTIONS",
      headers: {
        Origin: ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": requestHeaders.join(","),
      },
    });
    assert.ok(reply.status >= 200 && reply.status < 300, `preflight status ${reply.status}`);
    const origin = reply.headers.get("access-control-allow-origin");
    assert.ok(origin === ORIGIN || origin === "*", `allowed origin ${origin}`);
    assert.ok(names(reply.headers.get("access-control-allow-methods")).includes("post"));
    const allowed = names(reply.headers.get("access-control-allow-headers"));
    for (const header of requestHeaders) {
      assert.ok(allowed.includes(header) || allowed.includes("*"), `allows ${header}`);
    }
  });

  it("lets the page read a cross-origin call's reply and its error", async () => {
    const request = create(ScoreRequestSchema, { gameId: "nosuchgame0" });
    const reply =
      TRANSPORT === "connect"
        ? await fetch(`${url}/${UTL.typeName}/Score`, {
            method: "POST",
            headers: { Origin: ORIGIN, "Content-Type": "application/json" },
            body: JSON.stringify({ gameId: request.gameId }),
          })
        : await fetch(`${url}/${UTL.typeName}/Score`, {
            method: "POST",
            headers: {
              Origin: ORIGIN,
              "Content-Type": "application/grpc-web+proto",
              "X-Grpc-Web": "1",
            },
            body: grpcWebFrame(toBinary(ScoreRequestSchema, request)),
          });
    const origin = reply.headers.get("access-control-allow-origin");
    assert.ok(origin === ORIGIN || origin === "*", `allowed origin ${origin}`);
    if (TRANSPORT === "connect") {
      assert.equal(reply.status, 404);
      const body = (await reply.json()) as { code: string };
      assert.equal(body.code, "not_found");
    } else {
      const exposed = names(reply.headers.get("access-control-expose-headers"));
      for (const header of ["grpc-status", "grpc-message", "grpc-status-details-bin"]) {
        assert.ok(exposed.includes(header), `exposes ${header}`);
      }
    }
  });
});

/** One gRPC-Web data frame: flag 0, the length (big-endian), the message. */
function grpcWebFrame(message: Uint8Array): Uint8Array {
  const frame = new Uint8Array(5 + message.length);
  new DataView(frame.buffer).setUint32(1, message.length);
  frame.set(message, 5);
  return frame;
}
