/**
 * A game record's canonical JSON (docs/RECORDS.md, "Canonical JSON"): the
 * protobuf JSON mapping with field names as in the .proto, default values left
 * out, enums by name, 64-bit integers as strings, object keys sorted, on one
 * line. The text is byte for byte what `roost export GAME_ID` writes (Python's
 * `json_format.MessageToJson(..., indent=None, sort_keys=True,
 * ensure_ascii=False)`, a newline at the end): `", "` and `": "` between
 * items, and the clock's `double` seconds written as Python writes a float
 * (`30.0`).
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { type GameRecord, GameRecordSchema } from "../gen/roost/common/v1/record_pb.js";

/** The keys whose numbers are protobuf `double`s (TimeControl's seconds). */
const DOUBLE_KEYS = new Set(["move_seconds", "bank_seconds", "increment_seconds"]);

/** A float as Python's repr writes it (an integral value keeps its `.0`). */
function pythonFloat(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value);
}

/** `value` as Python's `json.dumps(value, sort_keys=True, ensure_ascii=False)` writes it. */
export function pythonJson(value: JsonValue, asDouble = false): string {
  if (value === null) return "null";
  if (typeof value === "number") return asDouble ? pythonFloat(value) : JSON.stringify(value);
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => pythonJson(v, asDouble)).join(", ")}]`;
  const keys = Object.keys(value).sort(codePointOrder);
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${pythonJson(value[k]!, DOUBLE_KEYS.has(k))}`).join(", ")}}`;
}

/** Python sorts str keys by code point; JS's default sort is by UTF-16 unit (the same below U+D800). */
function codePointOrder(a: string, b: string): number {
  const x = Array.from(a).map((c) => c.codePointAt(0)!);
  const y = Array.from(b).map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** The record's canonical JSON text, with the trailing newline `roost export` writes. */
export function canonicalRecordJson(record: GameRecord): string {
  return pythonJson(toJson(GameRecordSchema, record, { useProtoFieldName: true })) + "\n";
}
