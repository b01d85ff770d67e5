/**
 * A matchmaker ticket from queue to seats: Enqueue, a Heartbeat at the
 * interval the ticket asks for while it waits, and WatchTicket until it is
 * assigned. Resolves with the assignment (the game, its id, and a seat and
 * token for every player of the party); rejects with a sentence when the
 * ticket fails, expires or is cancelled. Both lobby forms use it: the queue
 * form, and "Start the game" when the table has bots (a private table: the
 * matchmaker creates its game at once, usually answering Enqueue already
 * assigned, and its house bots play on the server).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { matchmakerClient } from "../api/clients.js";
import { currentIdentity } from "../identity.js";
import {
  type Assignment,
  BotKind,
  type EnqueueRequestSchema,
  type Ticket,
  type TableSeat,
  TableSeatSchema,
  TicketStatus,
} from "../gen/roost/matchmaking/v1/matchmaking_pb.js";

export type TicketRequest = MessageInitShape<typeof EnqueueRequestSchema>;

/** A ticket's status in words ("queued", "failed: ..."). */
export function ticketText(t: Ticket): string {
  const status = (TicketStatus[t.status] ?? "").toLowerCase();
  return t.error ? `${status}: ${t.error}` : status;
}

/** One seat of a private table: a party member (by player id) or a bot of some kind with an optional name. */
export function tableSeat(who: { playerId: string } | { bot: BotKind; name?: string }): TableSeat {
  return "playerId" in who
    ? create(TableSeatSchema, { occupant: { case: "playerId", value: who.playerId } })
    : create(TableSeatSchema, { occupant: { case: "bot", value: who.bot }, name: who.name ?? "" });
}

/**
 * The player id of this browser: the verified identity's (identity.ts) when
 * the page has one, else an id kept in localStorage so ratings follow it.
 */
export function browserPlayerId(): string {
  const verified = currentIdentity();
  if (verified?.playerId) return verified.playerId;
  const key = "roost.player.v1";
  let id = localStorage.getItem(key);
  if (!id) {
    id = `web-${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
    localStorage.setItem(key, id);
  }
  return id;
}

/**
 * Queue a ticket and wait for its assignment. `onTicket` hears every change
 * (with a way to leave the queue while it waits); `signal` stops waiting and
 * withdraws the ticket, so no game is made for a page that left.
 */
export async function queueForSeats(
  request: TicketRequest,
  signal: AbortSignal,
  onTicket: (ticket: Ticket, leave: () => void) => void = () => {},
): Promise<Assignment> {
  const mm = matchmakerClient();
  const reply = await mm.enqueue(request, { signal });
  const ticket = reply.ticket!;
  // A private table is normally seated by Enqueue itself.
  if (ticket.status === TicketStatus.ASSIGNED && ticket.assignment) {
    onTicket(ticket, () => {});
    return ticket.assignment;
  }
  const id = ticket.ticketId;
  const beat = setInterval(() => void mm.heartbeat({ ticketId: id }).catch(() => {}), ticket.heartbeatIntervalMs || 5000);
  const leave = () => void mm.cancel({ ticketId: id }).catch(() => {});
  signal.addEventListener("abort", leave, { once: true });
  try {
    for await (const update of mm.watchTicket({ ticketId: id }, { signal })) {
      const t = update.ticket!;
      onTicket(t, leave);
      if (t.status === TicketStatus.ASSIGNED && t.assignment) return t.assignment;
      if (t.status === TicketStatus.FAILED || t.status === TicketStatus.EXPIRED || t.status === TicketStatus.CANCELLED) {
        throw new Error(`The matchmaker could not seat this table (${ticketText(t)}).`);
      }
    }
    throw new Error("The matchmaker stopped answering before the table was seated.");
  } finally {
    clearInterval(beat);
    signal.removeEventListener("abort", leave);
  }
}
