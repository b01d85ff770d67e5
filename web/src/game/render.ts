/**
 * Draw the game page from a GameModel: a header (game, seat, connection,
 * links), the notice line, the board with its legal targets made clickable,
 * the chooser, the move log (announced politely to screen readers) and the
 * score board (final once the game is over).
 */
import { h } from "../dom.js";
import { seatName } from "../boards/kit.js";
import { seatOf } from "../presence.js";
import { renderScoreBoard } from "../boards/scoreboard.js";
import type { Choice } from "../choose/choices.js";
import { activateTargets, renderChooser } from "../choose/panel.js";
import { kitOf } from "../games/index.js";
import { howToPlayButton } from "../howto/howto.js";
import { game as entry } from "../registry.js";
import type { GameModel } from "./model.js";
import { downloadButton } from "../replay/download.js";
import { renderClock, startTicker } from "./clock.js";
import { type LifecycleActions, renderEnding, renderLifecycleControls } from "./lifecycle.js";

/** What the live indicator says: only what is true now. */
const CONNECTION_WORDS: Record<GameModel["connection"], string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  offline: "not connected",
  fixture: "fixture",
};

export interface GameActions {
  pickTarget(key: string): void;
  pickStep(step: string): void;
  back(): void;
  /** Toggle a thing of a set choice (the starting birds to keep). */
  togglePick(key: string): void;
  /** Send one choice as it is (a confirmed set, a free action). */
  send(choice: Choice): void;
  /** Resign and rematch (a seat's live page only: none in fixture mode). */
  lifecycle?: LifecycleActions;
}

function logLine(model: GameModel, e: GameModel["log"][number]): HTMLElement {
  // Seat -1 (or none): the game itself, e.g. its creation.
  const who = seatOf(e.seat) === undefined ? "" : `${seatName(model.seats, e.seat)}: `;
  return h("li", {}, who, e.redacted ? "(a secret decision)" : e.label || e.kind);
}

/** The whole game page. */
export function renderGame(model: GameModel, actions: GameActions): HTMLElement {
  const kit = kitOf(model.game);
  const title = entry(model.game).title;
  const spectator = model.viewerSeat < 0;
  const header = h(
    "header",
    { class: "game-header" },
    h("h1", {}, title),
    h(
      "p",
      {},
      spectator ? "Watching as a spectator" : `Playing as ${seatName(model.seats, model.viewerSeat)}`,
      " · ",
      h("span", { class: `connection ${model.connection}`, role: "status" }, CONNECTION_WORDS[model.connection]),
      model.connection === "offline" && [" ", h("button", { type: "button", class: "reload", onclick: () => location.reload() }, "Reload")],
      " · ",
      model.finished ? "game over" : model.toAct.length ? `to act: ${model.toAct.map((s) => seatName(model.seats, s)).join(", ")}` : "",
      " · ",
      h("a", { href: `#/watch/${model.game}/${model.gameId}` }, "spectator link"),
      // The record's download and replay need a server: none in fixture mode (recorded positions).
      model.connection !== "fixture" && [
        model.finished && [" · ", h("a", { class: "replay-link", href: `#/replay/${model.game}/${model.gameId}?seat=${model.viewerSeat}` }, "replay")],
        " · ",
        downloadButton(model.game, model.gameId),
      ],
      " · ",
      h("a", { href: "#/" }, "lobby"),
      " · ",
      howToPlayButton(model.game),
    ),
  );
  const notice = h("p", { class: "notice", role: "alert" }, model.notice ?? "");
  const clock = !model.finished && renderClock(model.clock, model.seats, model.clockAt ?? Date.now());
  if (clock) startTicker();
  let board: HTMLElement;
  if (model.view && model.catalogue) {
    board = kit.render({
      view: model.view,
      catalogue: model.catalogue,
      seats: model.seats,
      viewerSeat: model.viewerSeat,
      toAct: model.toAct,
      targets: model.chooser ? new Set(model.chooser.choices.flatMap((c) => (c.target ? [c.target] : []))) : undefined,
    });
    if (model.chooser) activateTargets(board, model.chooser, actions.pickTarget, actions.togglePick);
  } else {
    board = h("p", { class: "loading" }, "Loading the board…");
  }
  const chooser = model.pending
    ? h("section", { class: "chooser sending", "aria-label": "Your choices", "aria-busy": "true" }, h("h2", {}, "Sending your move"), h("p", {}, model.pending), model.notice && h("p", { class: "hint" }, model.notice))
    : model.chooser
    ? renderChooser(model.chooser, { step: actions.pickStep, back: actions.back, toggle: actions.togglePick, send: actions.send }, model.view && kit.preview ? (choices) => kit.preview!(model.view!, choices) : undefined)
    : !spectator && !model.finished
      ? h("section", { class: "chooser waiting", "aria-label": "Your choices" }, h("p", {}, "Waiting for the other players…"))
      : false;
  const log = h(
    "section",
    { class: "log", "aria-label": "Moves" },
    h("h2", {}, "Moves"),
    h("ol", { "aria-live": "polite" }, model.log.slice(-12).map((e) => logLine(model, e))),
  );
  return h(
    "div",
    { class: `game-page game-${model.game}` },
    header,
    clock,
    notice,
    renderEnding(model),
    renderLifecycleControls(model, actions.lifecycle, model.rematch),
    model.finished && model.score && renderScoreBoard(model.score, model.seats, model.viewerSeat),
    h("main", { class: "game-main" }, h("div", { class: "board-wrap" }, board), h("aside", { class: "side" }, chooser, log, !model.finished && model.score && renderScoreBoard(model.score, model.seats, model.viewerSeat))),
  );
}
