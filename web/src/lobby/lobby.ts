/**
 * The lobby: start a game (game, player count, options, who sits where: you,
 * a bot, or another person who joins by a shared link), queue through the
 * matchmaker (alone or with a party, with bots filling empty seats), list the
 * games this browser takes part in to resume them, and open any game as a
 * spectator.
 *
 * A table with a bot is a private table of the matchmaker: the people of the
 * table (this browser's and those who join by link) and a bot kind per bot
 * seat, each in the seat chosen; nobody else can join it, the game is created
 * at once and the matchmaker's house bots play on the server (the page can be
 * closed). A table of bots only is a game to watch. A table of people only is
 * created directly with NewGame, in the seat order chosen.
 */
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { gameClient } from "../api/clients.js";
import { explain } from "../api/errors.js";
import { forget, heldGames, type HeldSeat, remember } from "../api/seats.js";
import { h, replace } from "../dom.js";
import { type Assignment, BotKind, TicketStatus } from "../gen/roost/matchmaking/v1/matchmaking_pb.js";
import { kitOf } from "../games/index.js";
import { seatOf } from "../presence.js";
import { GAMES, game as entry, type GameName } from "../registry.js";
import { optionsFields, readOptions } from "./options.js";
import { browserPlayerId, queueForSeats, tableSeat, ticketText } from "./queue.js";
import { pageIdentity } from "../api/bearer.js";
import { whoLine } from "./who.js";

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

function isBot(plan: SeatPlan | undefined): boolean {
  return plan === "greedy" || plan === "random";
}

/** What the new-game form asks for. */
interface Table {
  game: GameName;
  players: number;
  plans: SeatPlan[];
  names: string[];
  options: JsonObject;
}

/** A table once seated: the game, the seats this browser plays, and the links for the other people. */
interface Seated {
  gameId: string;
  held: HeldSeat[];
  links: { who: string; seat: number; token: string }[];
}

/** People only: NewGame, each person in the seat chosen. */
async function createTable(t: Table): Promise<Seated> {
  const options = fromJson(kitOf(t.game).schemas.options, t.options);
  const reply = await gameClient(t.game).newGame({ common: { players: t.players, seatNames: t.names }, options });
  const held: HeldSeat[] = [];
  const links: Seated["links"] = [];
  for (const c of reply.credentials) {
    const seat = seatOf(c.seat);
    if (seat === undefined) continue; // a credential without its seat cannot be used
    if (t.plans[seat] === "open") links.push({ who: `Seat ${seat + 1}`, seat, token: c.token });
    else held.push({ seat, token: c.token, player: "you" });
  }
  return { gameId: reply.gameId, held, links };
}

/**
 * With bots: a private table of the matchmaker. Every seat as chosen: this
 * browser's people and the ones who join by link as the party, a bot of the
 * chosen kind in every other seat; the bots play on the server.
 */
async function seatWithBots(t: Table, status: HTMLElement): Promise<Seated> {
  await pageIdentity(); // the verified player id, once known, is this browser's first person
  const me = browserPlayerId();
  const firstYou = t.plans.indexOf("you");
  // Ratings follow player ids: this browser's first person is its player id, others get their own.
  const playerIds = t.plans.map((plan, seat) =>
    plan === "open" ? `guest-${crypto.randomUUID().slice(0, 8)}` : seat === firstYou ? me : `${me}.${seat + 1}`,
  );
  const people = t.plans.flatMap((plan, seat) => (plan === "you" || plan === "open" ? [{ plan, seat, playerId: playerIds[seat]! }] : []));
  replace(status, people.length ? "Asking the matchmaker for a table with bots…" : "Asking the matchmaker for a game of bots…");
  // Leaving the lobby before the table is seated withdraws the ticket.
  const leaving = new AbortController();
  window.addEventListener("hashchange", () => leaving.abort(), { once: true });
  const assignment: Assignment = await queueForSeats(
    {
      game: t.game,
      playerCounts: [t.players],
      optionsJson: Object.keys(t.options).length ? JSON.stringify(t.options) : "",
      party: people.map(({ playerId, seat }) => ({ playerId, name: t.names[seat] ?? "" })),
      table: {
        seats: t.plans.map((plan, seat) =>
          isBot(plan) ? tableSeat({ bot: plan === "random" ? BotKind.RANDOM : BotKind.GREEDY, name: t.names[seat] ?? "" }) : tableSeat({ playerId: playerIds[seat]! }),
        ),
      },
    },
    leaving.signal,
    (ticket) => replace(status, `Seating the table: ${ticketText(ticket)}`),
  );
  const held: HeldSeat[] = [];
  const links: Seated["links"] = [];
  // In seat order, so this browser's first person stays the one the page plays.
  for (const person of people) {
    const given = assignment.seats.find((s) => s.playerId === person.playerId);
    const seat = seatOf(given?.seat);
    if (!given || seat === undefined) continue;
    if (person.plan === "open") links.push({ who: t.names[person.seat] || "Another person", seat, token: given.token });
    else held.push({ seat, token: given.token, player: "you" });
  }
  return { gameId: assignment.gameId, held, links };
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
        const table = { game: name, players: n, plans, names, options: readOptions(optionsBox) };
        try {
          const seated = plans.some(isBot) ? await seatWithBots(table, status) : await createTable(table);
          remember({ game: name, gameId: seated.gameId, seats: seated.held, players: n, createdMs: Date.now(), openedMs: Date.now() });
          if (!plans.some((p) => p === "you" || p === "open")) {
            navigate(`#/watch/${name}/${seated.gameId}`); // bots only: a game to watch
          } else if (seated.links.length) {
            replace(status, "Share these links, one per person: ", h("ul", {}, seated.links.map((l) => h("li", {}, `${l.who}: `, h("input", { readonly: true, value: joinLink(name, seated.gameId, l.seat, l.token), "aria-label": `join link for ${l.who.toLowerCase()}` })))), h("a", { href: `#/play/${name}/${seated.gameId}` }, "Go to the game"));
          } else {
            navigate(`#/play/${name}/${seated.gameId}`);
          }
        } catch (err) {
          replace(status, explain(err));
        }
      },
    },
    h("div", { class: "field" }, h("label", { for: "ng-game" }, "Game"), select),
    h("div", { class: "field" }, h("label", { for: "ng-players" }, "Players"), players),
    h(
      "fieldset",
      { "aria-describedby": "ng-seats-help" },
      h("legend", {}, "Seats"),
      seatsBox,
      h("small", { id: "ng-seats-help" }, "Bots play on the server, also when this page is closed. With a bot at the table the matchmaker sets it up as a private table: everyone sits where chosen, each bot plays as chosen, nobody else joins. A table of bots only is a game to watch."),
    ),
    h("fieldset", {}, h("legend", {}, "Options"), optionsBox),
    h("button", { type: "submit" }, "Start the game"),
    status,
  );
  refresh();
  return h("section", { class: "panel", "aria-labelledby": "h-new" }, h("h2", { id: "h-new" }, "New game"), form);
}

function queueForm(navigate: (hash: string) => void): HTMLElement {
  const status = h("p", { class: "notice", role: "status" });
  const optionsBox = h("div", { class: "options" });
  const select = gameSelect("q-game", () => replace(optionsBox, optionsFields(kitOf(select.value as GameName).schemas.options)));
  const counts = h("input", { id: "q-counts", type: "text", value: "2", "aria-describedby": "q-counts-help" }) as HTMLInputElement;
  // The party's first member is who this page is (the matchmaker refuses another id for a verified caller).
  const party = h("input", { id: "q-party", type: "text", value: browserPlayerId() }) as HTMLInputElement;
  const firstParty = party.value;
  void pageIdentity().then((who) => {
    if (who && party.value === firstParty) party.value = who.playerId;
  });
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
        const players = party.value.split(",").map((p) => p.trim()).filter(Boolean).map((id) => ({ playerId: id, name: id }));
        try {
          const a = await queueForSeats(
            {
              game: select.value,
              playerCounts: counts.value.split(",").map((c) => Number(c.trim())).filter((c) => c > 0),
              party: players,
              // Empty means the defaults (and matches other default tickets).
              optionsJson: Object.keys(readOptions(optionsBox)).length ? JSON.stringify(readOptions(optionsBox)) : "",
              // 0: the matchmaker's default wait, so people queued for the same table can join first.
              botFill: { enabled: bots.checked, afterMs: 0, kind: kind.value === "random" ? BotKind.RANDOM : BotKind.GREEDY },
            },
            stop.signal,
            (t, leave) =>
              replace(status, `Ticket ${t.ticketId}: ${ticketText(t)} `, t.status === TicketStatus.QUEUED && h("button", { type: "button", onclick: leave }, "Leave the queue")),
          );
          // This browser plays the party's first seat; the others get join links.
          const seats = a.seats.flatMap((s) => {
            const seat = seatOf(s.seat);
            return seat === undefined ? [] : [{ ...s, seat }];
          });
          const [first, ...rest] = seats;
          remember({ game: a.game as GameName, gameId: a.gameId, seats: first ? [{ seat: first.seat, token: first.token, player: "you" }] : [], players: a.players, createdMs: Date.now(), openedMs: Date.now() });
          if (rest.length) {
            replace(status, "Matched. Links for the rest of your party: ", h("ul", {}, rest.map((s) => h("li", {}, `${s.playerId}: `, h("input", { readonly: true, value: joinLink(a.game, a.gameId, s.seat, s.token), "aria-label": `join link for ${s.playerId}` })))), h("a", { href: `#/play/${a.game}/${a.gameId}` }, "Go to the game"));
          } else {
            navigate(`#/play/${a.game}/${a.gameId}`);
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
        h("header", {}, h("h1", {}, "Roost"), h("p", {}, "Bird and garden board games: play against people or bots, or watch."), whoLine(pageIdentity())),
        h("main", { class: "lobby-grid" }, newGameForm(navigate), yourGames(draw), queueForm(navigate), spectateForm(navigate)),
      ),
    );
  draw();
}
