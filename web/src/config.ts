/**
 * Where the app finds each service's browser endpoint (Connect / gRPC-Web),
 * the one place to change it.
 *
 * Order of precedence for a service's base URL:
 * 1. `window.ROOST_CONFIG.endpoints[name]` (set by an optional `config.js`
 *    served next to index.html), where `name` is "matchmaking" or a game name;
 * 2. `window.ROOST_CONFIG.baseUrl` for every service;
 * 3. the page's own origin. Connect paths name the service
 *    (`/roost.wingspan.v1.Wingspan/Apply`), so one origin can route every
 *    service, which is how a production Ingress serves the app.
 *
 * `make run` serves a generated `config.js` naming each service's browser
 * port on the page's host (docs/WEB.md).
 *
 * `protocol` picks the wire protocol: "connect" (default) or "grpc-web".
 *
 * `identityToken` is a token of the frontend's own identity provider (a JWT,
 * or a function returning one), sent instead of a guest identity (see
 * identity.ts and docs/WEB.md).
 */
export interface RoostConfig {
  baseUrl?: string;
  endpoints?: Record<string, string>;
  protocol?: "connect" | "grpc-web";
  identityToken?: string | (() => string | Promise<string>);
}

declare global {
  interface Window {
    ROOST_CONFIG?: RoostConfig;
  }
}

function current(): RoostConfig {
  return (typeof window !== "undefined" && window.ROOST_CONFIG) || {};
}

/** The base URL of a service, by registry name ("wingspan", "matchmaking"). */
export function baseUrl(name: string): string {
  const config = current();
  const own = config.endpoints?.[name];
  if (own) return own;
  if (config.baseUrl) return config.baseUrl;
  return typeof location !== "undefined" ? location.origin : "http://localhost:8080";
}

/** The wire protocol the transports speak. */
export function protocol(): "connect" | "grpc-web" {
  return current().protocol ?? "connect";
}

/** The identity provider's token (or the function giving it), when the embedding page sets one. */
export function identityToken(): RoostConfig["identityToken"] {
  return current().identityToken || undefined;
}
