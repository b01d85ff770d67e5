/**
 * The replay page, `#/replay/<game>/<game id>?seat=N&v=K` (see address.ts).
 *
 * What it is drawn from: the game's record (`GetRecord`: every decision with
 * its version, seat, label, time, status and the seats asked after it, and
 * the final score board) and the final view (`GetState`, with the chosen
 * seat's token when this browser holds it, else the spectator's). The
 * services give a view of the current version only (GetState, Watch; GetLog
 * and GetRecord carry no views, docs/CLIENTS.md), and the rules run on the
 * server, so the board is drawn with the game's own board at the last
 * version; every other step shows that decision, who made it, what it was
 * (its label; a secret one's kind and arguments once the game is over) and
 * who was asked next, with the list of every decision to jump to.
 */
import { asSeat, gameClient, type GameClient } from "../api/clients.js";
import { catalogue } from "../api/catalogue.js";
import { explain } from "../api/errors.js";
import { ownSeat } from "../api/seats.js";
import { seatName } from "../boards/kit.js";
import { renderScoreBoard } from "../boards/scoreboard.js";
import { h, replace } from "../dom.js";
import type { Seat } from "../gen/roost/common/v1/common_pb.js";
import type { GameRecord, RecordedDecision } from "../gen/roost/common/v1/record_pb.js";
import { kitOf } from "../games/index.js";
import { seatOf } from "../presence.js";
import { game as entry, type GameName } from "../registry.js";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Message } from "@bufbuild/protobuf";
import { clampVersion, type ReplayAddress, replayHash, step } from "./address.js";
import { downloadButton } from "./download.js";

interface Loaded {
  record: GameRecord;
  seats: Seat[];
  /** The seat whose final view was read (-1: the spectator's). */
  viewerSeat: number;
  view?: Message;
  catalogue?: Message;
}

/** The label of a decision as the replay lists it. */
export function decisionText(seats: Seat[], d: RecordedDecision): string {
  const who = seatOf(d.seat) === undefined ? "" : `${seatName(seats, d.seat)}: `;
  const what = d.kind === "new_game" ? "the game is set up" : d.label || d.kind || "(a secret decision)";
  return `${who}${what}`;
}

export class ReplayPage {
  private loaded?: Loaded;
  private stopped = false;

  constructor(
    private readonly root: HTMLElement,
    private address: ReplayAddress,
    private readonly client: GameClient = gameClient(address.game),
  ) {}

  async start(): Promise<void> {
    replace(this.root, h("p", { class: "loading" }, "Loading the replay…"));
    try {
      const reply = await this.client.getRecord({ gameId: this.address.gameId });
      const record = reply.record;
      if (!record) throw new Error("The service sent no record.");
      const token = this.address.seat >= 0 ? ownSeat(this.address.gameId, this.address.seat)?.token : undefined;
      const state = await this.client.getState({ gameId: this.address.gameId }, asSeat(token));
      const kit = kitOf(this.address.game as GameName);
      const cat = await catalogue(this.address.game, kit.schemas.catalogue as GenMessage<Message>, this.client);
      if (this.stopped) return;
      const viewer = seatOf(state.viewerSeat);
      this.loaded = { record, seats: state.seats, viewerSeat: viewer ?? -1, view: state.view, catalogue: cat };
      this.draw();
    } catch (err) {
      if (!this.stopped) replace(this.root, h("p", { role: "alert" }, `This replay cannot be shown: ${explain(err)}`), h("p", {}, h("a", { href: "#/" }, "lobby")));
    }
  }

  stop(): void {
    this.stopped = true;
  }

  /** The version shown now (for tests). */
  get version(): number {
    return clampVersion(this.address.version, this.last());
  }

  private last(): number {
    const decisions = this.loaded?.record.decisions ?? [];
    return decisions.length ? Number(decisions[decisions.length - 1]!.version) : 1;
  }

  /** Go to another version or seat: the address (and the shared link) follows, without a reload. */
  go(change: Partial<ReplayAddress>): void {
    const seatChanged = change.seat !== undefined && change.seat !== this.address.seat;
    this.address = { ...this.address, ...change };
    history.replaceState(null, "", replayHash(this.address));
    if (seatChanged) void this.start();
    else this.draw();
  }

  private draw(): void {
    const loaded = this.loaded;
    if (!loaded) return;
    const { record, seats } = loaded;
    const last = this.last();
    const at = this.version;
    const decision = record.decisions.find((d) => Number(d.version) === at);
    const shareUrl = new URL(replayHash({ ...this.address, version: at }), location.href).href;
    const kit = kitOf(this.address.game as GameName);
    const seatChoices = [-1, ...Array.from({ length: record.players }, (_, i) => i)];
    const header = h(
      "header",
      { class: "game-header" },
      h("h1", {}, `${entry(this.address.game as GameName).title}: replay`),
      h(
        "p",
        {},
        record.complete ? "the whole game" : "the public part (the game is still on)",
        " · ",
        h(
          "label",
          {},
          "view of ",
          h(
            "select",
            { class: "replay-seat", onchange: (e: Event) => this.go({ seat: Number((e.target as HTMLSelectElement).value) }) },
            seatChoices.map((s) => {
              const option = h("option", { value: String(s) }, s < 0 ? "the spectator" : seatName(seats, s));
              (option as HTMLOptionElement).selected = s === this.address.seat;
              return option;
            }),
          ),
        ),
        " · ",
        h("a", { class: "replay-share", href: shareUrl }, "link to this move"),
        " · ",
        downloadButton(this.address.game, this.address.gameId, this.client),
        " · ",
        h("a", { href: "#/" }, "lobby"),
      ),
    );
    const asked = this.address.seat >= 0 && loaded.viewerSeat !== this.address.seat;
    const controls = h(
      "nav",
      { class: "replay-controls", "aria-label": "Replay", style: "display: flex; gap: 0.5em; align-items: center" },
      h("button", { type: "button", class: "replay-first", disabled: at <= 1, onclick: () => this.go({ version: 1 }) }, "Start"),
      h("button", { type: "button", class: "replay-back", disabled: at <= 1, onclick: () => this.go({ version: step(at, -1, last) }) }, "◀ Back"),
      h("span", { class: "replay-position", role: "status" }, `Move ${at} of ${last}`),
      h("button", { type: "button", class: "replay-forward", disabled: at >= last, onclick: () => this.go({ version: step(at, 1, last) }) }, "Forward ▶"),
      h("button", { type: "button", class: "replay-last", disabled: at >= last, onclick: () => this.go({ version: last }) }, "End"),
    );
    const facts = decision && this.facts(seats, decision, record.complete);
    const board =
      at === last && loaded.view && loaded.catalogue
        ? kit.render({ view: loaded.view, catalogue: loaded.catalogue, seats, viewerSeat: loaded.viewerSeat, toAct: decision?.toAct ?? [] })
        : h(
            "p",
            { class: "replay-no-board" },
            `The board is drawn at the last move (${last}): the service gives a view of a game's current version only. `,
            "This step shows the decision, who made it and who was asked next.",
          );
    const list = h(
      "section",
      { class: "log replay-moves", "aria-label": "Moves" },
      h("h2", {}, "Moves"),
      h(
        "ol",
        {},
        record.decisions.map((d) => {
          const v = Number(d.version);
          return h(
            "li",
            { value: String(v) },
            h("button", { type: "button", class: "replay-jump", "data-version": String(v), "aria-current": v === at ? "step" : false, onclick: () => this.go({ version: v }) }, decisionText(seats, d)),
          );
        }),
      ),
    );
    replace(
      this.root,
      h(
        "div",
        { class: `game-page replay-page game-${this.address.game}` },
        header,
        asked && h("p", { class: "notice", role: "alert" }, `This browser holds no seat token for ${seatName(seats, this.address.seat)}: the board shows the spectator's view.`),
        controls,
        facts,
        at === last && record.scoreboard && renderScoreBoard(record.scoreboard, seats, loaded.viewerSeat),
        h("main", { class: "game-main" }, h("div", { class: "board-wrap" }, board), h("aside", { class: "side" }, list)),
      ),
    );
    this.root.querySelector<HTMLElement>('.replay-jump[aria-current="step"]')?.scrollIntoView?.({ block: "nearest" });
  }

  private facts(seats: Seat[], d: RecordedDecision, complete: boolean): HTMLElement {
    const toAct = d.toAct.length ? d.toAct.map((s) => seatName(seats, s)).join(", ") : "nobody";
    const shown = complete && d.secret && d.kind ? ` (${d.kind} ${d.argsJson})` : "";
    return h(
      "section",
      { class: "replay-step", "aria-label": "This move" },
      h("p", { class: "replay-decision" }, `${Number(d.version)}. ${decisionText(seats, d)}${shown}`),
      h("p", {}, `Then to act: ${toAct}`, d.timeMs ? ` · ${new Date(Number(d.timeMs)).toLocaleTimeString()}` : ""),
    );
  }
}
