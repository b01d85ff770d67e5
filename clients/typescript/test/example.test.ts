/** The worked example of docs/CLIENTS.md (src/example.ts) plays a game to its end. */
import assert from "node:assert/strict";
import { it } from "node:test";
import { grpcUrl } from "../src/config.js";
import { example } from "../src/example.js";
import { TRANSPORT, UTL } from "./support.js";

it(
  "the worked example plays a game of two seats to its end",
  { skip: TRANSPORT === "grpc" ? false : "the example speaks gRPC" },
  async () => {
    const totals = await example(grpcUrl(UTL));
    assert.equal(totals.length, 2);
  },
);
