/**
 * The live game page: loads the state, catalogue, legal actions, score and
 * recent log of a game, follows it through Watch (resuming by itself), runs
 * the bots this page plays, and sends the person's choices. Every change goes
 * through `update`, which re-renders the page from the model.
 *
 * A choice is sent with the version it was decided on; a stale or no longer
 * legal choice is explained in words and the state is read again.
 */
import { asSeat, type GameClient, gameClient, requestId } from "../api/clients.js";
import { catalogue } from "../api/catalogue.js";
import { decodeError, explain, retryable } from "../api/errors.js";
import { heldGame, touch } from "../api/seats.js";
import { watchGame } from "../api/watch.js";
import { GameStatus } from "../gen/roost/common/v1/common_pb.js";
import { choicesOf } from "../choose/choices.js";
import { decided, pickStep, pickTarget } from "../choose/panel.js";
import { replace } from "../dom.js";
import { kitOf } from "../games/index.js";
import type { GameName } from "../registry.js";
import { playBots } from "./bots.js";
import { appendLog, type GameModel } from "./model.js";
import { announce, focusKey, restoreFocus } from "./focus.js";
import { renderGame } from "./render.js";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Message } from "@bufbuild/protobuf";

export class GameController {
  private model: GameModel;
  private readonly client: GameClient;
  private readonly abort = new AbortController();
  private readonly token: string | undefined;
  private sending = false;
  private botsRunning = false;
  private botsAgain = false;

  /** `client` defaults to the game's Connect client (tests pass their own). */
  constructor(
    private readonly root: HTMLElement,
    game: GameName,
    gameId: string,
    spectate: boolean,
    client?: GameClient,
  ) {
    this.client = client ?? gameClient(game);
    const held = heldGame(gameId);
    const own = spectate ? undefined : held?.seats.find((s) => s.player === "you");
    this.token = own?.token;
    this.model = {
      game,
      gameId,
      seats: [],
      viewerSeat: own ? own.seat : -1,
      version: 0n,
      finished: false,
      toAct: [],
      log: [],
      connection: "offline",
      botSeats: spectate ? [] : (held?.seats.filter((s) => s.player !== "you").map((s) => s.seat) ?? []),
    };
    touch(gameId);
  }

  /** Load everything and follow the game until `stop`. */
  async start(): Promise<void> {
    this.update({});
    try {
      await this.retrying(() => this.refresh());
      if (this.model.connection === "reconnecting") this.update({ notice: undefined });
      const kit = kitOf(this.model.game);
      const cat = await catalogue(this.model.game, kit.schemas.catalogue as GenMessage<Message>, this.client);
      const since = this.model.version > 30n ? this.model.version - 30n : 0n;
      const log = await this.client.getLog({ gameId: this.model.gameId, fromVersion: since, limit: 30 }, asSeat(this.token));
      this.update({ catalogue: cat, log: log.entries.flatMap((e) => (e.event ? [e.event] : [])).slice(-30) });
      void this.runBots();
      await this.follow();
    } catch (err) {
      if (!this.abort.signal.aborted) this.update({ notice: explain(err), connection: "offline" });
    }
  }

  /** The model drawn now (for tests). */
  get state(): GameModel {
    return this.model;
  }

  /** Run `call`, retrying passing failures (a restarting service) with backoff. */
  private async retrying(call: () => Promise<void>): Promise<void> {
    for (let delay = 250; ; delay = Math.min(delay * 2, 8000)) {
      try {
        return await call();
      } catch (err) {
        if (this.abort.signal.aborted || !retryable(err)) throw err;
        this.update({ connection: "reconnecting", notice: explain(err) });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  stop(): void {
    this.abort.abort();
  }

  private update(change: Partial<GameModel>, toChooser = false): void {
    this.model = { ...this.model, ...change };
    const focused = focusKey();
    replace(
      this.root,
      renderGame(this.model, {
        pickTarget: (key) => this.choose(pickTarget(this.model.chooser!, key)),
        pickStep: (step) => this.choose(pickStep(this.model.chooser!, step)),
        back: () => this.update({ chooser: this.model.chooser && { choices: this.model.chooser.choices, path: [] } }, true),
      }),
    );
    restoreFocus(this.root, focused, toChooser);
    if (change.notice) announce(change.notice);
  }

  /** Read state, legal actions (when this seat is to act) and score. */
  private async refresh(): Promise<void> {
    const opts = asSeat(this.token, this.abort.signal);
    const state = await this.client.getState({ gameId: this.model.gameId }, opts);
    const finished = state.status === GameStatus.FINISHED;
    const mine = !finished && this.token !== undefined && state.toAct.includes(state.viewerSeat);
    const legal = mine ? await this.client.legal({ gameId: this.model.gameId }, opts) : undefined;
    const score = await this.client.score({ gameId: this.model.gameId }, opts);
    if (finished) touch(this.model.gameId, true);
    this.update({
      seats: state.seats,
      viewerSeat: this.token ? state.viewerSeat : -1,
      version: state.version,
      finished,
      toAct: state.toAct,
      view: state.view,
      // Keep the steps already taken while the game has not moved on.
      chooser:
        legal && legal.version === state.version
          ? state.version === this.model.version && this.model.chooser
            ? this.model.chooser
            : { choices: choicesOf(legal.actions, kitOf(this.model.game).naming), path: [] }
          : undefined,
      score: score.scoreboard,
    });
  }

  /** Follow Watch; refresh after each batch of events. */
  private async follow(): Promise<void> {
    const stream = watchGame(this.client, this.model.gameId, this.token, this.model.version, this.abort.signal, {
      onStatus: (connection) => connection !== this.model.connection && this.update({ connection }),
    });
    for await (const item of stream) {
      this.model.log = appendLog(this.model.log, item.event);
      if (item.event.seat !== this.model.viewerSeat && item.event.seat >= 0) {
        const who = this.model.seats.find((s) => s.seat === item.event.seat)?.name || `Seat ${item.event.seat + 1}`;
        announce(`${who}: ${item.event.redacted ? "a secret decision" : item.event.label}`);
      }
      if (item.view) {
        await this.refresh();
        void this.runBots();
      }
    }
    if (!this.abort.signal.aborted) await this.refresh();
  }

  private async runBots(): Promise<void> {
    const held = heldGame(this.model.gameId);
    const bots = held?.seats.filter((s) => s.player !== "you" && this.model.botSeats.includes(s.seat)) ?? [];
    if (!bots.length || this.model.finished) return;
    if (this.botsRunning) {
      // A bot's own move can bring its next turn before this run returns: go again after.
      this.botsAgain = true;
      return;
    }
    this.botsRunning = true;
    try {
      do {
        this.botsAgain = false;
        await playBots(this.client, this.model.gameId, bots, this.model.toAct, this.abort.signal);
      } while (this.botsAgain && !this.model.finished && !this.abort.signal.aborted);
    } catch (err) {
      if (!this.abort.signal.aborted) this.update({ notice: `A bot could not move: ${explain(err)}` });
    } finally {
      this.botsRunning = false;
    }
  }

  /** Narrow the chooser; send the choice once one is left. */
  private choose(next: GameModel["chooser"]): void {
    if (!next) return;
    const choice = decided(next);
    if (!choice) {
      this.update({ chooser: next, notice: undefined }, true);
      return;
    }
    void this.send(choice.id);
  }

  private async send(actionId: number): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    const id = requestId();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.client.apply(
            { gameId: this.model.gameId, expectedVersion: this.model.version, requestId: id, choice: { case: "actionId", value: actionId } },
            asSeat(this.token, this.abort.signal),
          );
          this.update({ chooser: undefined, notice: undefined });
          // Do not wait for Watch (it may be reconnecting): read the new state now.
          await this.refresh();
          void this.runBots();
          break;
        } catch (err) {
          // The same request id makes a retry safe: the server applies it once.
          if (retryable(err) && attempt < 4) {
            await new Promise((r) => setTimeout(r, 300 * 2 ** attempt));
            continue;
          }
          this.update({ notice: explain(err) });
          const reason = decodeError(err).reason;
          if (reason === "ERROR_REASON_STALE_VERSION" || reason === "ERROR_REASON_UNKNOWN_ACTION" || reason === "ERROR_REASON_ILLEGAL_ACTION") {
            const notice = this.model.notice;
            await this.refresh();
            this.update({ notice });
          }
          break;
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
