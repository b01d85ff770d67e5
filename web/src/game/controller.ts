/**
 * The live game page. It reads the game once (GetState for the seats and the
 * first view, the catalogue, the recent log), then follows one Watch stream
 * that brings, with each event, the seat's view and, when the seat is asked
 * to decide, its legal actions: no GetState, Legal or Score call per event.
 * The stream resumes by itself from the last version seen. Score is read only
 * when the game has ended (every view carries the running scores). Every
 * change goes through `update`, which re-renders the page from the model.
 *
 * A choice is sent with the version its legal list belongs to; a stale or no
 * longer legal choice is explained in words and the legal actions are read
 * again (the one Legal call, a recovery). Bot seats are played by the
 * matchmaker's house bots on the server, never by this page.
 */
import type { AnyLegalAction, GameClient } from "../api/clients.js";
import { asSeat, gameClient, requestId } from "../api/clients.js";
import { catalogue } from "../api/catalogue.js";
import { decodeError, explain, retryable } from "../api/errors.js";
import { heldGame, remember, touch } from "../api/seats.js";
import { watchGame, type WatchHooks } from "../api/watch.js";
import { GameStatus } from "../gen/roost/common/v1/common_pb.js";
import { choicesOf } from "../choose/choices.js";
import { type ChooserState, decided, pickStep, pickTarget, togglePick } from "../choose/panel.js";
import { replace } from "../dom.js";
import { kitOf } from "../games/index.js";
import { seatOf } from "../presence.js";
import type { GameName } from "../registry.js";
import { appendLog, type GameModel } from "./model.js";
import { announce, focusKey, restoreFocus } from "./focus.js";
import { renderGame } from "./render.js";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Message } from "@bufbuild/protobuf";

/** What the page says when it has stopped following the game. */
export const STOPPED = "Live updates have stopped: reload the page to try again.";

/** True once a game takes no more decisions (finished, or aborted before every first decision). */
function isOver(status: GameStatus): boolean {
  return status === GameStatus.FINISHED || status === GameStatus.ABORTED;
}

/** Reasons after which the page reads its legal actions again. */
const REREAD = new Set(["ERROR_REASON_STALE_VERSION", "ERROR_REASON_UNKNOWN_ACTION", "ERROR_REASON_ILLEGAL_ACTION", "ERROR_REASON_NOT_YOUR_TURN"]);

export class GameController {
  private model: GameModel;
  private readonly client: GameClient;
  private readonly abort = new AbortController();
  private readonly token: string | undefined;
  private sending = false;

  /** `client` defaults to the game's Connect client; `watchHooks` (tests) set Watch's sleep. */
  constructor(
    private readonly root: HTMLElement,
    game: GameName,
    gameId: string,
    spectate: boolean,
    client?: GameClient,
    private readonly watchHooks: Pick<WatchHooks, "sleep"> = {},
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
      connection: "connecting",
    };
    touch(gameId);
  }

  /** Load everything and follow the game until `stop`. */
  async start(): Promise<void> {
    this.update({});
    try {
      await this.retrying(() => this.load());
      if (this.model.connection === "reconnecting") this.update({ notice: undefined });
      const kit = kitOf(this.model.game);
      let cat: Message | undefined;
      await this.retrying(async () => {
        cat = await catalogue(this.model.game, kit.schemas.catalogue as GenMessage<Message>, this.client);
      });
      const since = this.model.version > 30n ? this.model.version - 30n : 0n;
      let log: Awaited<ReturnType<GameClient["getLog"]>> | undefined;
      await this.retrying(async () => {
        log = await this.client.getLog({ gameId: this.model.gameId, fromVersion: since, limit: 30 }, asSeat(this.token));
      });
      this.update({ catalogue: cat, log: log!.entries.flatMap((e) => (e.event ? [e.event] : [])).slice(-30) });
      if (this.model.finished) await this.finish();
      else await this.follow();
    } catch (err) {
      // Nothing more will arrive by itself: say so, and what to do.
      if (!this.abort.signal.aborted) this.update({ notice: `${explain(err)} ${STOPPED}`, connection: "offline" });
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
        togglePick: (key) => this.update({ chooser: togglePick(this.model.chooser!, key), notice: undefined }),
        send: (choice) => void this.send(choice.id),
        lifecycle: this.token ? { resign: () => void this.resign(), rematch: () => void this.rematch() } : undefined,
      }),
    );
    restoreFocus(this.root, focused, toChooser);
    if (change.notice) announce(change.notice);
  }

  /** The first read: seats, this page's seat, the view and where the game stands. */
  private async load(): Promise<void> {
    const state = await this.client.getState({ gameId: this.model.gameId }, asSeat(this.token, this.abort.signal));
    this.update({
      seats: state.seats,
      // A page without a token is a spectator whatever the server says; -1 or absent means no seat.
      viewerSeat: this.token ? (seatOf(state.viewerSeat) ?? -1) : -1,
      version: state.version,
      finished: isOver(state.status),
      toAct: state.toAct,
      view: state.view,
      clock: state.clock,
      clockAt: Date.now(),
    });
  }

  /** The game has ended: the final score board, read once. */
  private async finish(): Promise<void> {
    touch(this.model.gameId, true);
    const score = await this.client.score({ gameId: this.model.gameId }, asSeat(this.token, this.abort.signal));
    this.update({ finished: true, chooser: undefined, choiceVersion: undefined, score: score.scoreboard });
    // Wherever the player was scrolled to (their mat, usually), the result comes into view and is read out.
    const final = this.root.querySelector<HTMLElement>("#final-scores");
    final?.focus({ preventScroll: true });
    final?.scrollIntoView?.({ block: "start", behavior: "smooth" });
  }

  /** Choices from a legal list, keeping the steps already taken when the list offers the same choices. */
  private chooserFor(legal: AnyLegalAction[]): ChooserState {
    const choices = choicesOf(legal, kitOf(this.model.game).naming);
    const old = this.model.chooser;
    const same =
      old !== undefined &&
      old.choices.length === choices.length &&
      old.choices.every((c, i) => c.label === choices[i]!.label && c.id === choices[i]!.id);
    return same ? { ...old, choices } : { choices, path: [] };
  }

  /**
   * Follow Watch. The stream starts one version back so its first event is
   * the current one again, with this seat's legal actions when it is asked to
   * decide. Each event sets the choices: its legal list, or none (the seat is
   * not asked, or its decision changed and a later event brings the new one).
   * The page is drawn when an event brings the view (the latest of a batch).
   */
  private async follow(): Promise<void> {
    const from = this.model.version > 0n ? this.model.version - 1n : 0n;
    const stream = watchGame(this.client, this.model.gameId, this.token, from, this.abort.signal, {
      ...this.watchHooks,
      // "live" comes once a (re)connected stream has brought an event (it starts one version
      // back, so the first comes at once); an attempt under way is still "reconnecting".
      onStatus: (connection) =>
        connection !== this.model.connection &&
        this.update({ connection, notice: connection === "live" && !this.model.pending ? undefined : this.model.notice }),
    });
    const me = this.model.viewerSeat;
    for await (const { event, view, legal } of stream) {
      if (this.model.connection !== "live") this.update({ connection: "live", notice: this.model.pending ? this.model.notice : undefined });
      const fresh = event.version > this.model.version;
      this.model.log = appendLog(this.model.log, event);
      const seat = seatOf(event.seat);
      if (fresh && seat !== undefined && seat !== me) {
        const who = this.model.seats.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`;
        announce(`${who}: ${event.redacted ? "a secret decision" : event.label}`);
      }
      const asked = me >= 0 && event.toAct.includes(me) && legal.length > 0;
      const change: Partial<GameModel> = {
        chooser: asked ? this.chooserFor(legal) : undefined,
        choiceVersion: asked ? event.version : undefined,
      };
      // Events come in order; a view sent with Apply's reply may be newer than a lagging stream's.
      if (event.version >= this.model.version) {
        Object.assign(change, { version: event.version, toAct: event.toAct, finished: isOver(event.status) });
        if (event.clock) Object.assign(change, { clock: event.clock, clockAt: Date.now() });
        if (view) change.view = view;
      }
      if (view || change.finished) this.update(change);
      else this.model = { ...this.model, ...change };
      if (change.finished) return this.finish();
      if (view && me >= 0 && this.model.toAct.includes(me) && !this.model.chooser) await this.reread();
    }
  }

  /** Read the seat's legal actions once (recovery after a refused choice, or a stream that did not bring them). */
  private async reread(): Promise<void> {
    if (this.token === undefined || this.model.finished) return;
    try {
      const legal = await this.client.legal({ gameId: this.model.gameId }, asSeat(this.token, this.abort.signal));
      const asked = legal.actions.length > 0;
      this.update({ chooser: asked ? this.chooserFor(legal.actions) : undefined, choiceVersion: asked ? legal.version : undefined });
    } catch (err) {
      if (!this.abort.signal.aborted) this.update({ notice: explain(err) });
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

  /**
   * Send a choice. A failure that may pass (storage or server unavailable,
   * overloaded, restarting) is retried with the same request id (applied at
   * most once) for as long as the choice is still the current one, with the
   * page saying the move is not sent yet; it is never dropped in silence. A
   * refused choice is explained and the legal actions read again.
   */
  private async send(actionId: number): Promise<void> {
    if (this.sending || this.model.choiceVersion === undefined) return;
    this.sending = true;
    const id = requestId();
    const expectedVersion = this.model.choiceVersion;
    const label = this.model.chooser?.choices.find((c) => c.id === actionId)?.label ?? "your move";
    this.update({ pending: label });
    try {
      for (let attempt = 0; !this.abort.signal.aborted; attempt++) {
        try {
          const reply = await this.client.apply(
            { gameId: this.model.gameId, expectedVersion, requestId: id, choice: { case: "actionId", value: actionId } },
            asSeat(this.token, this.abort.signal),
          );
          // The stream brings the next choices with the event of this move,
          // and may bring them before this reply: those are kept.
          const answered = this.model.choiceVersion === expectedVersion;
          const change: Partial<GameModel> = answered
            ? { chooser: undefined, choiceVersion: undefined, notice: undefined, pending: undefined }
            : { notice: undefined, pending: undefined };
          if (reply.version > this.model.version) {
            Object.assign(change, { version: reply.version, toAct: reply.toAct });
            if (reply.view) change.view = reply.view;
          }
          this.update(change);
          break;
        } catch (err) {
          if (this.abort.signal.aborted) break;
          // The same request id makes a retry safe: the server applies it once.
          if (retryable(err) && this.model.choiceVersion === expectedVersion) {
            const wait = Math.min(300 * 2 ** attempt, 8000);
            this.update({ notice: `Not sent yet: ${label}. ${explain(err)} Trying again in ${Math.ceil(wait / 1000)} s.` });
            await (this.watchHooks.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(wait);
            continue;
          }
          this.update({ notice: explain(err), pending: undefined });
          if (REREAD.has(decodeError(err).reason) || retryable(err)) await this.reread();
          break;
        }
      }
    } finally {
      this.sending = false;
      if (this.model.pending) this.update({ pending: undefined });
    }
  }

  /** Resign this seat (game/lifecycle.ts); the Watch stream brings the ending. */
  private async resign(): Promise<void> {
    if (this.model.finished) return;
    try {
      await this.client.resign({ gameId: this.model.gameId }, asSeat(this.token, this.abort.signal));
      this.update({ notice: undefined, chooser: undefined, choiceVersion: undefined });
    } catch (err) {
      this.update({ notice: explain(err) });
    }
  }

  /** Offer (accept) a rematch; this browser holds its seat in the new game. */
  private async rematch(): Promise<void> {
    try {
      const reply = await this.client.offerRematch({ gameId: this.model.gameId }, asSeat(this.token, this.abort.signal));
      const rematch = reply.rematch;
      if (!rematch) return;
      if (rematch.credential) {
        const now = Date.now();
        remember({
          game: this.model.game,
          gameId: rematch.gameId,
          seats: [{ seat: rematch.credential.seat ?? 0, token: rematch.credential.token, player: "you" }],
          players: this.model.seats.length,
          createdMs: now,
          openedMs: now,
        });
      }
      this.update({ notice: undefined, rematch: { gameId: rematch.gameId, started: rematch.started, awaitedSeats: rematch.awaitedSeats } });
    } catch (err) {
      this.update({ notice: explain(err) });
    }
  }
}
