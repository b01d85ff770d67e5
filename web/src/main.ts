/**
 * The app's entry: a hash router over the lobby and the game page.
 *
 *   #/                                  the lobby
 *   #/play/<game>/<game id>             play with the seat this browser holds
 *   #/watch/<game>/<game id>            watch as a spectator (public view only)
 *   #/join/<game>/<game id>/<seat>/<token>  take a seat someone shared, then play
 *   #/replay/<game>/<game id>?seat=N&v=K  replay a game step by step (replay/address.ts)
 *   ?fixture=<game>/<position>          draw a recorded position, no server (tests, screenshots)
 */
import "./styles.css";
import type { JsonValue } from "@bufbuild/protobuf";
import { remember, heldGame } from "./api/seats.js";
import { h, replace } from "./dom.js";
import { GameController } from "./game/controller.js";
import { modelFromRecording, type RecordedPosition } from "./game/recorded.js";
import { focusKey, restoreFocus } from "./game/focus.js";
import { renderGame } from "./game/render.js";
import { decided, pickStep, pickTarget, togglePick } from "./choose/panel.js";
import type { GameModel } from "./game/model.js";
import { renderLobby } from "./lobby/lobby.js";
import { GAMES, type GameName } from "./registry.js";
import { parseReplayHash } from "./replay/address.js";
import { ReplayPage } from "./replay/page.js";

const root = document.getElementById("app")!;
let current: GameController | ReplayPage | undefined;

function navigate(hash: string): void {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function isGame(name: string | undefined): name is GameName {
  return GAMES.some((g) => g.name === name);
}

function route(): void {
  current?.stop();
  current = undefined;
  const replay = parseReplayHash(location.hash);
  if (replay && isGame(replay.game)) {
    current = new ReplayPage(root, replay);
    void current.start();
    return;
  }
  const [, page, game, gameId, seat, token] = location.hash.split("/");
  if ((page === "play" || page === "watch") && isGame(game) && gameId) {
    current = new GameController(root, game, gameId, page === "watch");
    void current.start();
    return;
  }
  if (page === "join" && isGame(game) && gameId && seat && token) {
    const held = heldGame(gameId);
    const seats = (held?.seats ?? []).filter((s) => s.seat !== Number(seat));
    seats.unshift({ seat: Number(seat), token: decodeURIComponent(token), player: "you" });
    remember({ game, gameId, seats, players: held?.players ?? 0, createdMs: held?.createdMs ?? Date.now(), openedMs: Date.now() });
    navigate(`#/play/${game}/${gameId}`);
    return;
  }
  renderLobby(root, navigate);
}

/** Fixture mode: the recorded positions are bundled as lazy chunks, loaded only here. */
const recordings = import.meta.glob<JsonValue>("../test/fixtures/*/*.json", { import: "default" });

async function showFixture(name: string): Promise<void> {
  const [game, position] = name.split("/");
  const load = recordings[`../test/fixtures/${game}/${position}.json`];
  const loadCatalogue = recordings[`../test/fixtures/${game}/catalogue.json`];
  if (!isGame(game) || !load || !loadCatalogue) {
    replace(root, h("p", { role: "alert" }, `No recorded position ${name}.`));
    return;
  }
  let model: GameModel = modelFromRecording(game, (await load()) as unknown as RecordedPosition, await loadCatalogue());
  const draw = (toChooser = false) => {
    const focused = focusKey();
    replace(
      root,
      renderGame(model, {
        pickTarget: (key) => step({ ...model, chooser: pickTarget(model.chooser!, key) }),
        pickStep: (s) => step({ ...model, chooser: pickStep(model.chooser!, s) }),
        back: () => step({ ...model, chooser: model.chooser && { choices: model.chooser.choices, path: [] } }),
        togglePick: (key) => {
          model = { ...model, chooser: togglePick(model.chooser!, key) };
          draw();
        },
        send: (choice) => {
          model = { ...model, notice: `Fixture mode: would send action ${choice.id} (${choice.label}).` };
          draw();
        },
      }),
    );
    restoreFocus(root, focused, toChooser);
  };
  const step = (next: GameModel) => {
    const open = next.chooser && decided(next.chooser);
    model = next;
    if (open) model = { ...model, notice: `Fixture mode: would send action ${open.id} (${open.label}).` };
    draw(true);
  };
  draw();
}

const fixture = new URLSearchParams(location.search).get("fixture");
if (fixture) {
  void showFixture(fixture);
} else {
  window.addEventListener("hashchange", route);
  route();
}
