/**
 * The wire protocol is a parameter: the same client speaks gRPC (HTTP/2, what
 * the services serve on their registry ports), the Connect protocol or
 * gRPC-Web (HTTP/1.1 or HTTP/2, what a browser can use).
 */
import type { Interceptor, Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";

/** The protocols a Roost service can be reached with. */
export type TransportKind = "grpc" | "connect" | "grpc-web";

export const TRANSPORT_KINDS: readonly TransportKind[] = ["grpc", "connect", "grpc-web"];

/** Parses a protocol name; throws on anything else. */
export function transportKind(value: string): TransportKind {
  const kind = TRANSPORT_KINDS.find((k) => k === value);
  if (kind === undefined) {
    throw new Error(`unknown transport ${JSON.stringify(value)}: use ${TRANSPORT_KINDS.join(", ")}`);
  }
  return kind;
}

/**
 * A transport of `kind` to the service at `baseUrl` (e.g. "http://127.0.0.1:50051").
 * gRPC always runs over HTTP/2 (cleartext h2c for http:// URLs); Connect and
 * gRPC-Web use HTTP/1.1, which every proxy and browser speaks. `interceptors`
 * see every call (logging, metrics, extra headers).
 */
export function createTransport(
  kind: TransportKind,
  baseUrl: string,
  interceptors: Interceptor[] = [],
): Transport {
  switch (kind) {
    case "grpc":
      return createGrpcTransport({ baseUrl, interceptors });
    case "connect":
      return createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors });
    case "grpc-web":
      return createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors });
  }
}
