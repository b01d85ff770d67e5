/**
 * The lobby: start a game (game, player count, options, who sits where: you,
 * a bot this page plays, or an open seat to share), queue through the
 * matchmaker (alone or with a party, with bots filling empty seats), list the
 * games this browser takes part in to resume them, and open any game as a
 * spectator.
 */
import { fromJson } from "@bufbuild/protobuf";
import { gameClient, matchmakerClient } from "../api/clients.js";
import { explain } from "../api/errors.js";
import { forget, heldGames, type HeldSeat, remember } from "../api/seats.js";
import { h, replace } from "../dom.js";
import { BotKind, TicketStatus, type Ticket } from "../gen/roost/matchmaking/v1/matchmaking_pb.js";
import { kitOf } from "../games/index.js";
import { GAMES, game as entry, type GameName } from "../registry.js";
import { optionsFields, readOptions } from "./options.js";

type SeatPlan = "you" | "random" | "greedy" | "open";

/** The link that seats a person of another browser. */
export function joinLink(game: string, gameId: string, seat: number, token: string): string {
  return `${location.origin}${location.pathname}#/join/${game}/${gameId}/${seat}/${encodeURIComponent(token)}`;
}

function gameSelect(id: string, onChange: () => void): HTMLSelectElement {
  return h(
    "select",
    { id, onchange: onChange },
    GAMES.map((g) => h("option", { value: g.name }, `${g.title} (${g.minPlayers}–${g.maxPlayers} players)`)),
  ) as HTMLSelectElement;
}

function newGameForm(navigate: (hash: string) => void): HTMLElement {
  const status = h("p", { class: "notice", role: "alert" });
  const seatsBox = h("div", { class: "seat-plans" });
  const optionsBox = h("div", { class: "options" });
  const players = h("input", { id: "ng-players", type: "number", value: "2" }) as HTMLInputElement;
  const select = gameSelect("ng-game", () => refresh());
  const refresh = () => {
    const g = entry(select.value);
    players.min = String(g.minPlayers);
    players.max = String(g.maxPlayers);
    const n = Math.min(g.maxPlayers, Math.max(g.minPlayers, Number(players.value) || g.minPlayers));
    players.value = String(n);
    replace(optionsBox, optionsFields(kitOf(g.name).schemas.options));
    replace(
      seatsBox,
      Array.from({ length: n }, (_, seat) =>
        h(
          "div",
          { class: "field" },
          h("label", { for: `ng-seat-${seat}` }, `Seat ${seat + 1}`),
          h(
            "select",
            { id: `ng-seat-${seat}`, "data-seat": seat },
            (["you", "greedy", "random", "open"] as SeatPlan[]).map((p) =>
              h("option", { value: p, selected: (seat === 0 ? p === "you" : p === "greedy") || undefined }, { you: "you", greedy: "bot (greedy)", random: "bot (random)", open: "another person (share a link)" }[p]),
            ),
          ),
          h("input", { type: "text", "aria-label": `name of seat ${seat + 1}`, "data-name": seat, placeholder: "name" }),
        ),
      ),
    );
  };
  players.addEventListener("change", refresh);
  const form = h(
    "form",
    {
      class: "new-game",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const name = select.value as GameName;
        const n = Number(players.value);
        const plans = [...seatsBox.querySelectorAll<HTMLSelectElement>("select[data-seat]")].map((s) => s.value as SeatPlan);
        const names = [...seatsBox.querySelectorAll<HTMLInputElement>("input[data-name]")].map((i, seat) => i.value.trim() || (plans[seat] === "you" || plans[seat] === "open" ? `Player ${seat + 1}` : `Bot ${seat + 1}`));
        try {
          const options = fromJson(kitOf(name).schemas.options, readOptions(optionsBox));
          const reply = await gameClient(name).newGame({ common: { players: n, seatNames: names }, options });
          const seats: HeldSeat[] = reply.credentials
            .filter((c) => plans[c.seat] !== "open")
            .map((c) => ({ seat: c.seat, token: c.token, player: plans[c.seat] as HeldSeat["player"] }));
          remember({ game: name, gameId: reply.gameId, seats, players: n, createdMs: Date.now(), openedMs: Date.now() });
          const open = reply.credentials.filter((c) => plans[c.seat] === "open");
          if (open.length) {
            replace(status, "Share these links, one per person: ", h("ul", {}, open.map((c) => h("li", {}, `Seat ${c.seat + 1}: `, h("input", { readonly: true, value: joinLink(name, reply.gameId, c.seat, c.token), "aria-label": `join link for seat ${c.seat + 1}` })))), h("a", { href: `#/play/${name}/${reply.gameId}` }, "Go to the game"));
          } else {
            navigate(`#/play/${name}/${reply.gameId}`);
          }
        } catch (err) {
          replace(status, explain(err));
        }
      },
    },
    h("div", { class: "field" }, h("label", { for: "ng-game" }, "Game"), select),
    h("div", { class: "field" }, h("label", { for: "ng-players" }, "Players"), players),
    h("fieldset", {}, h("legend", {}, "Seats"), seatsBox),
    h("fieldset", {}, h("legend", {}, "Options"), optionsBox),
    h("button", { type: "submit" }, "Start the game"),
    status,
  );
  refresh();
  return h("section", { class: "panel", "aria-labelledby": "h-new" }, h("h2", { id: "h-new" }, "New game"), form);
}

function ticketText(t: Ticket): string {
  const status = (TicketStatus[t.status] ?? "").toLowerCase();
  return t.error ? `${status}: ${t.error}` : status;
}

function queueForm(navigate: (hash: string) => void): HTMLElement {
  const status = h("p", { class: "notice", role: "status" });
  const optionsBox = h("div", { class: "options" });
  const select = gameSelect("q-game", () => replace(optionsBox, optionsFields(kitOf(select.value as GameName).schemas.options)));
  const counts = h("input", { id: "q-counts", type: "text", value: "2", "aria-describedby": "q-counts-help" }) as HTMLInputElement;
  const party = h("input", { id: "q-party", type: "text", value: "me" }) as HTMLInputElement;
  const bots = h("input", { id: "q-bots", type: "checkbox", checked: true }) as HTMLInputElement;
  const kind = h("select", { id: "q-kind" }, h("option", { value: "greedy" }, "greedy"), h("option", { value: "random" }, "random")) as HTMLSelectElement;
  let stop: AbortController | undefined;
  replace(optionsBox, optionsFields(kitOf(select.value as GameName).schemas.options));
  const form = h(
    "form",
    {
      class: "queue",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        stop?.abort();
        stop = new AbortController();
        const mm = matchmakerClient();
        const players = party.value.split(",").map((p) => p.trim()).filter(Boolean).map((id) => ({ playerId: id, name: id }));
        try {
          const reply = await mm.enqueue({
            game: select.value,
            playerCounts: counts.value.split(",").map((c) => Number(c.trim())).filter((c) => c > 0),
            party: players,
            // Empty means the defaults (and matches other default tickets).
            optionsJson: Object.keys(readOptions(optionsBox)).length ? JSON.stringify(readOptions(optionsBox)) : "",
            botFill: { enabled: bots.checked, afterMs: 0, kind: kind.value === "random" ? BotKind.RANDOM : BotKind.GREEDY },
          });
          const id = reply.ticket!.ticketId;
          const beat = setInterval(() => void mm.heartbeat({ ticketId: id }).catch(() => {}), reply.ticket!.heartbeatIntervalMs || 5000);
          const cancel = h("button", { type: "button", onclick: () => void mm.cancel({ ticketId: id }) }, "Leave the queue");
          try {
            for await (const update of mm.watchTicket({ ticketId: id }, { signal: stop.signal })) {
              const t = update.ticket!;
              replace(status, `Ticket ${id}: ${ticketText(t)} `, t.status === TicketStatus.QUEUED && cancel);
              if (t.status === TicketStatus.ASSIGNED && t.assignment) {
                const a = t.assignment;
                const [first, ...rest] = a.seats;
                remember({ game: a.game as GameName, gameId: a.gameId, seats: first ? [{ seat: first.seat, token: first.token, player: "you" }] : [], players: a.players, createdMs: Date.now(), openedMs: Date.now() });
                if (rest.length) {
                  replace(status, "Matched. Links for the rest of your party: ", h("ul", {}, rest.map((s) => h("li", {}, `${s.playerId}: `, h("input", { readonly: true, value: joinLink(a.game, a.gameId, s.seat, s.token), "aria-label": `join link for ${s.playerId}` })))), h("a", { href: `#/play/${a.game}/${a.gameId}` }, "Go to the game"));
                } else {
                  navigate(`#/play/${a.game}/${a.gameId}`);
                }
                break;
              }
            }
          } finally {
            clearInterval(beat);
          }
        } catch (err) {
          if (!stop.signal.aborted) replace(status, explain(err));
        }
      },
    },
    h("div", { class: "field" }, h("label", { for: "q-game" }, "Game"), select),
    h("div", { class: "field" }, h("label", { for: "q-counts" }, "Player counts"), counts, h("small", { id: "q-counts-help" }, "comma-separated, e.g. 2,3")),
    h("div", { class: "field" }, h("label", { for: "q-party" }, "Party (player ids)"), party),
    h("div", { class: "field" }, h("label", { for: "q-bots" }, "Bots fill empty seats"), bots, h("label", { for: "q-kind", class: "sr-only" }, "bot kind"), kind),
    h("fieldset", {}, h("legend", {}, "Options"), optionsBox),
    h("button", { type: "submit" }, "Find a game"),
    status,
  );
  return h("section", { class: "panel", "aria-labelledby": "h-queue" }, h("h2", { id: "h-queue" }, "Matchmaking"), form);
}

function yourGames(rerender: () => void): HTMLElement {
  const games = heldGames();
  return h(
    "section",
    { class: "panel", "aria-labelledby": "h-yours" },
    h("h2", { id: "h-yours" }, "Your games"),
    games.length === 0
      ? h("p", {}, "None yet.")
      : h(
          "ul",
          { class: "held-games" },
          games.map((g) =>
            h(
              "li",
              {},
              h("a", { href: `#/play/${g.game}/${g.gameId}` }, `${entry(g.game).title} · ${g.players} players · ${new Date(g.createdMs).toLocaleString()}`),
              g.finished ? " (finished) " : " ",
              h("a", { href: `#/watch/${g.game}/${g.gameId}` }, "spectate"),
              " ",
              h("button", { type: "button", onclick: () => (forget(g.gameId), rerender()), "aria-label": `forget the ${entry(g.game).title} game` }, "forget"),
            ),
          ),
        ),
  );
}

function spectateForm(navigate: (hash: string) => void): HTMLElement {
  const select = gameSelect("w-game", () => {});
  const id = h("input", { id: "w-id", type: "text", required: true }) as HTMLInputElement;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "h-watch" },
    h("h2", { id: "h-watch" }, "Watch a game"),
    h(
      "form",
      { onsubmit: (e: Event) => (e.preventDefault(), navigate(`#/watch/${select.value}/${id.value.trim()}`)) },
      h("div", { class: "field" }, h("label", { for: "w-game" }, "Game"), select),
      h("div", { class: "field" }, h("label", { for: "w-id" }, "Game id"), id),
      h("button", { type: "submit" }, "Watch"),
    ),
  );
}

/** Draw the lobby into `root`. */
export function renderLobby(root: HTMLElement, navigate: (hash: string) => void): void {
  const draw = () =>
    replace(
      root,
      h(
        "div",
        { class: "lobby" },
        h("header", {}, h("h1", {}, "Roost"), h("p", {}, "Bird and garden board games: play against people or bots, or watch.")),
        h("main", { class: "lobby-grid" }, newGameForm(navigate), yourGames(draw), queueForm(navigate), spectateForm(navigate)),
      ),
    );
  draw();
}
