/**
 * One browser transport per service base URL, speaking Connect (JSON-free:
 * binary protobuf) or gRPC-Web as config.ts says. A page that embeds Roost
 * differently (or a test with an in-memory router) can put its own transport
 * in front of a service with `useTransport`. Every call carries the page's
 * identity (`authorization: Bearer …`, see api/bearer.ts).
 */
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { baseUrl, protocol } from "../config.js";
import { pageBearer } from "./bearer.js";

const transports = new Map<string, Transport>();
const chosen = new Map<string, Transport>();

/** The transport of a service, by registry name; built once per base URL. */
export function transportFor(name: string): Transport {
  const own = chosen.get(name);
  if (own) return own;
  const url = baseUrl(name);
  const key = `${protocol()} ${url}`;
  let transport = transports.get(key);
  if (!transport) {
    transport =
      protocol() === "grpc-web"
        ? createGrpcWebTransport({ baseUrl: url, useBinaryFormat: true, interceptors: [pageBearer] })
        : createConnectTransport({ baseUrl: url, useBinaryFormat: true, interceptors: [pageBearer] });
    transports.set(key, transport);
  }
  return transport;
}

/** Use `transport` for the service `name` from now on (undefined: back to config.ts). */
export function useTransport(name: string, transport: Transport | undefined): void {
  if (transport) chosen.set(name, transport);
  else chosen.delete(name);
}
