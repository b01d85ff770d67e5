/**
 * Each game's catalogue (every card, tile and goal with its printed facts),
 * fetched once and kept in localStorage under its content version: the next
 * visit sends that version as if_version and reuses the copy when the server
 * answers not_modified.
 */
import { fromJson, toJson, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { GameClient } from "./clients.js";

interface Cached {
  version: string;
  json: JsonValue;
}

const memory = new Map<string, Message>();

function key(game: string): string {
  return `roost.catalogue.${game}`;
}

/** The catalogue of a game, from memory, localStorage or the server. */
export async function catalogue<T extends Message>(
  game: string,
  schema: GenMessage<T>,
  client: GameClient,
): Promise<T> {
  const known = memory.get(game);
  if (known) return known as T;
  let cached: Cached | undefined;
  try {
    cached = JSON.parse(localStorage.getItem(key(game)) ?? "null") ?? undefined;
  } catch {
    cached = undefined;
  }
  const reply = await client.getCatalogue({ ifVersion: cached?.version ?? "" });
  let value: T;
  if (reply.notModified && cached) {
    value = fromJson(schema, cached.json, { ignoreUnknownFields: true });
  } else {
    value = reply.catalogue as T;
    try {
      localStorage.setItem(
        key(game),
        JSON.stringify({ version: reply.version, json: toJson(schema, value) }),
      );
    } catch {
      // A full localStorage only costs a refetch next time.
    }
  }
  memory.set(game, value);
  return value;
}

/** Put a catalogue in the memory cache (fixture mode and tests). */
export function primeCatalogue(game: string, value: Message): void {
  memory.set(game, value);
}
