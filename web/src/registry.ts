/**
 * The Roost services the app talks to: the same table as the registry
 * protos/roost/games.toml (a unit test keeps the two equal), with the
 * generated service descriptor of each.
 */
import type { GenService } from "@bufbuild/protobuf/codegenv2";
import { Birdscaping } from "./gen/roost/birdscaping/v1/service_pb.js";
import { Matchmaker } from "./gen/roost/matchmaking/v1/matchmaking_pb.js";
import { SkyGarden } from "./gen/roost/skygarden/v1/service_pb.js";
import { UnderTheLeaves } from "./gen/roost/undertheleaves/v1/service_pb.js";
import { Wingspan } from "./gen/roost/wingspan/v1/service_pb.js";

export type GameName = "skygarden" | "wingspan" | "birdscaping" | "undertheleaves";

/** One game service as the registry describes it. */
export interface GameEntry {
  name: GameName;
  title: string;
  /** The fully qualified proto service, e.g. "roost.wingspan.v1.Wingspan". */
  service: string;
  defaultPort: number;
  minPlayers: number;
  maxPlayers: number;
  note: string;
  descriptor: GenService<any>;
}

export const GAMES: readonly GameEntry[] = [
  {
    name: "skygarden",
    title: "Sky Garden",
    service: "roost.skygarden.v1.SkyGarden",
    defaultPort: 50051,
    minPlayers: 1,
    maxPlayers: 4,
    note: "2 players with Lucy, solo with its targets",
    descriptor: SkyGarden,
  },
  {
    name: "wingspan",
    title: "Wingspan",
    service: "roost.wingspan.v1.Wingspan",
    defaultPort: 50052,
    minPlayers: 2,
    maxPlayers: 5,
    note: "the base game",
    descriptor: Wingspan,
  },
  {
    name: "birdscaping",
    title: "Birdscaping",
    service: "roost.birdscaping.v1.Birdscaping",
    defaultPort: 50053,
    minPlayers: 1,
    maxPlayers: 2,
    note: "solo against the AI column",
    descriptor: Birdscaping,
  },
  {
    name: "undertheleaves",
    title: "Under the Leaves",
    service: "roost.undertheleaves.v1.UnderTheLeaves",
    defaultPort: 50054,
    minPlayers: 2,
    maxPlayers: 4,
    note: "",
    descriptor: UnderTheLeaves,
  },
];

export const MATCHMAKER = {
  name: "matchmaking",
  service: "roost.matchmaking.v1.Matchmaker",
  defaultPort: 50050,
  descriptor: Matchmaker,
} as const;

/** The registry entry of a game; throws on an unknown name. */
export function game(name: string): GameEntry {
  const entry = GAMES.find((g) => g.name === name);
  if (!entry) throw new Error(`unknown game ${name}`);
  return entry;
}
