/**
 * One browser transport per service base URL, speaking Connect (JSON-free:
 * binary protobuf) or gRPC-Web as config.ts says.
 */
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { baseUrl, protocol } from "../config.js";

const transports = new Map<string, Transport>();

/** The transport of a service, by registry name; built once per base URL. */
export function transportFor(name: string): Transport {
  const url = baseUrl(name);
  const key = `${protocol()} ${url}`;
  let transport = transports.get(key);
  if (!transport) {
    transport =
      protocol() === "grpc-web"
        ? createGrpcWebTransport({ baseUrl: url, useBinaryFormat: true })
        : createConnectTransport({ baseUrl: url, useBinaryFormat: true });
    transports.set(key, transport);
  }
  return transport;
}
