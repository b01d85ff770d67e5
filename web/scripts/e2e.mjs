// End-to-end: plays a game of each kind against bots in headless Chromium,
// through the page only (the lobby form, clicks on the board and the chooser).
// For each game:
// - the game is created from the lobby with every other seat a bot;
// - Wingspan's starting birds are kept by clicking two dealt cards and the button naming them;
//   in Under the Leaves a tile spot is clicked and each rotation is offered with its picture;
// - it is played to the end by clicking what the page offers (a board target or
//   a choice, picked by a seeded generator among the visible, enabled ones);
// - a second page watches as a spectator: it shows the same moves as the player's
//   page while the game runs, never a hand, a chooser or a target, and the same
//   final score board;
// - the player's page is reloaded in the middle and resumes the game;
// - optionally a game service is restarted in the middle (see --restart): both
//   pages reconnect by themselves and the game goes on;
// - the final score board lists every category, with the same totals on both pages.
// Then it queues through the matchmaker with bots filling the other seat.
// Named alone ("timed"): a timed game whose bot side stops answering and runs out of time
// (see timedGame).
// Named alone ("guest", "identity"): who the page plays as (issue 28; see guestStep and
// identityStep): a guest identity queued with, and a provider token given to the page.
//
// Usage: node scripts/e2e.mjs <base url of the served app> [options] [game ... | matchmaking]
//   --out DIR        where screenshots go (default test-results/e2e)
//   --restart GAME   in GAME's game, print "RESTART <game>" on stdout and wait for one line on
//                    stdin (the caller restarts that game's service, then answers)
//   --seed N         the click generator's seed (default: E2E_SEED or 1)
//   timed            (only when named) the timed game of timedGame
//   guest, identity  (only when named) guestStep and identityStep (E2E_IDP_* name the tokens)
//   replay           (only when named) the replay of a finished game (replayGame)
// The app at that URL must reach the services' browser endpoints (see
// src/config.ts). CHROMIUM overrides /usr/bin/chromium.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The command line: the base URL, options and the games to play. */
function parseArgs(argv) {
  const args = { base: "", out: join(WEB, "test-results", "e2e"), restart: "", seed: Number(process.env.E2E_SEED ?? 1), only: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out") args.out = argv[++i];
    else if (arg === "--restart") args.restart = argv[++i];
    else if (arg === "--seed") args.seed = Number(argv[++i]);
    else if (!args.base) args.base = arg;
    else args.only.push(arg);
  }
  if (!args.base) throw new Error("usage: node scripts/e2e.mjs <base url> [--out DIR] [--restart GAME] [--seed N] [game ...]");
  return args;
}

const args = parseArgs(process.argv.slice(2));
const base = args.base;
/**
 * Every game of the registry, read from the generated web/src/registry.ts (its
 * entries are one field per line): name, proto service (the Connect path's
 * first part) and player counts.
 */
const REGISTRY = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "src", "registry.ts"), "utf8");
const ENTRIES = [...REGISTRY.matchAll(/name: "(\w+)",\n.*\n\s+service: "([\w.]+)",\n.*\n\s+minPlayers: (\d+),\n\s+maxPlayers: (\d+),/g)].map(
  ([, name, service, min, max]) => ({ name, service, min: Number(min), max: Number(max) }),
);
if (ENTRIES.length === 0) throw new Error("no games read from web/src/registry.ts");
/** Players per game: small tables keep the run short (2 seats, or the solo table of a game for at most two). */
const TABLES = Object.fromEntries(ENTRIES.map((g) => [g.name, g.max > 2 ? Math.max(2, g.min) : g.min]));
/** Each game's proto service (the Connect path's first part). */
const SERVICES = Object.fromEntries(ENTRIES.map((g) => [g.name, g.service]));
const MAX_CLICKS = 3000;
/** The player's page is reloaded after this many clicks, a service restarted after RESTART_AT. */
const RELOAD_AT = 8;
const RESTART_AT = 16;
/** Give up when nothing was clickable for this long (ms). */
const IDLE_LIMIT_MS = 60000;
const OFFERED = ".target:visible, .chooser button.choice:visible:enabled";
const SECRETS = ".hand, [aria-label='Hand'], .chooser:not(.waiting), .target";

mkdirSync(args.out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const failures = [];
const stdin = createInterface({ input: process.stdin });
const lines = stdin[Symbol.asyncIterator]();

/** Mulberry32: a small seeded generator, so a failing run can be replayed with its seed. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(args.seed);

/** Click one thing the page offers (a board target or a choice); false when there is none
 * or it went away before the click (the page re-renders as others move). The visibility
 * and enabledness are checked by the locator, so the click itself skips Playwright's
 * actionability waits, which cost seconds on a loaded machine; it is still a real mouse
 * click at the element's centre. */
async function clickSomething(page) {
  const options = page.locator(OFFERED);
  const n = await options.count();
  if (!n) return false;
  return options
    .nth(Math.floor(random() * n))
    .click({ timeout: 2000, force: true })
    .then(() => true)
    .catch(() => false);
}

/** The lines of a page's move log. */
async function moveLog(page) {
  return page.locator(".log li").allTextContents();
}

/** The spectator's log shows the player's moves: the newest lines (as many as both pages
 * have; a page's log starts when it was opened) are the same, except the player's own secret
 * decisions, which the spectator sees as "(a secret decision)". */
function sameMoves(mine, theirs) {
  const k = Math.min(mine.length, theirs.length, 6);
  if (!k) return false;
  const a = mine.slice(-k);
  const b = theirs.slice(-k);
  return a.every((line, i) => line === b[i] || b[i].endsWith("(a secret decision)"));
}

/** Wait until the spectator's log shows the same moves as the player's. */
async function spectatorFollows(game, page, spectator, when) {
  const deadline = Date.now() + 15000;
  let mine = [];
  let theirs = [];
  while (Date.now() < deadline) {
    mine = await moveLog(page);
    theirs = await moveLog(spectator);
    if (sameMoves(mine, theirs)) return;
    await page.waitForTimeout(200);
  }
  failures.push(`${game}: ${when}, the spectator's moves differ: ${JSON.stringify(mine.slice(-3))} vs ${JSON.stringify(theirs.slice(-3))}`);
}

/** The spectator page shows no hand, chooser or target. */
async function noSecrets(game, spectator, when) {
  const shown = await spectator.locator(SECRETS).count();
  if (shown) failures.push(`${game}: ${when}, the spectator sees ${shown} hand/chooser/target elements`);
}

/** The game's final score as the service reports it (Score over Connect JSON, from the page). */
async function serverScore(page, game, gameId) {
  return page.evaluate(
    async ([game, service, gameId]) => {
      const endpoint = window.ROOST_CONFIG?.endpoints?.[game] ?? location.origin;
      const reply = await fetch(`${endpoint}/${service}/Score`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ gameId }),
      });
      return reply.json();
    },
    [game, SERVICES[game], gameId],
  );
}

/** A row header or category name, compared without case, underscores or extra spaces. */
const normal = (text) => text.replace(/[_\s]+/g, " ").trim().toLowerCase();

/** The final score board shows every category of the service's score, with each seat's
 * points, and each seat's total (columns in the service's seat order). */
async function checkScoreBoard(game, page, gameId) {
  const score = await serverScore(page, game, gameId);
  const seats = score.scoreboard?.seats ?? [];
  const rows = await page.locator(".scoreboard.final tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].map((cell) => (cell.textContent ?? "").trim())),
  );
  const byHeader = new Map(rows.map((row) => [normal(row[0]), row.slice(1)]));
  const names = [...new Set(seats.flatMap((seat) => (seat.categories ?? []).map((c) => c.name)))];
  if (!names.length) failures.push(`${game}: the service's score has no categories: ${JSON.stringify(score)}`);
  for (const name of names) {
    const shown = byHeader.get(normal(name));
    const expected = seats.map((seat) => String((seat.categories ?? []).find((c) => c.name === name)?.points ?? 0));
    if (!shown) failures.push(`${game}: the score board has no row for "${name}"`);
    else if (JSON.stringify(shown) !== JSON.stringify(expected)) failures.push(`${game}: "${name}" shows ${shown} but the service scores ${expected}`);
  }
  const totals = seats.map((seat) => String(seat.total ?? 0));
  if (JSON.stringify(byHeader.get("total")) !== JSON.stringify(totals)) failures.push(`${game}: totals show ${byHeader.get("total")} but the service says ${totals}`);
  return names.length;
}

/** Ask the caller to restart the game's service and wait for its answer. */
async function restartService(game) {
  console.log(`RESTART ${game}`);
  const answer = await lines.next();
  if (answer.done) throw new Error("stdin closed while waiting for the restart");
}

/** What a page's header and notice say (for failure messages). */
async function status(page) {
  const connection = (await page.locator(".connection").allTextContents()).join(" ");
  const notice = (await page.locator(".notice").allTextContents()).join(" ");
  return `connection "${connection}", notice "${notice}"`;
}

/** Wait for a page's connection status to say "live" again. */
async function live(game, page, who) {
  await page
    .waitForSelector(".connection.live", { timeout: 30000 })
    .catch(async () => failures.push(`${game}: the ${who} page did not reconnect after the restart (${await status(page)})`));
}

/** Wingspan's starting hand, chosen as a player does: click two dealt birds (toggles), then the
 * button that names them. True once done. */
async function keepStartingBirds(game, page) {
  const cards = page.locator(".setup .bird-card.target");
  if ((await cards.count()) < 2) return false;
  const names = [];
  for (const i of [0, 2]) {
    names.push((await cards.nth(i).locator("h4").textContent()) ?? "");
    await cards.nth(i).click();
  }
  const pressed = await page.locator(".setup .bird-card[aria-pressed=true]").count();
  const confirm = page.locator(".chooser button.confirm");
  const label = (await confirm.textContent()) ?? "";
  if (pressed !== 2 || !names.every((n) => label.includes(n))) failures.push(`${game}: clicking ${names.join(", ")} offered "${label}" (${pressed} pressed)`);
  await confirm.click();
  return true;
}

/** Under the Leaves: click a spot for the tile; the chooser then shows each rotation as a picture
 * of the tile turned. True once checked. */
async function previewRotation(game, page) {
  const spot = page.locator(".spot.target");
  if (!(await spot.count())) return false;
  await spot.first().click();
  const buttons = page.locator(".chooser button.choice");
  const texts = await buttons.allTextContents();
  const pictures = await page.locator(".chooser button.choice .mini-tile").count();
  if (!texts.length || !texts.every((t) => t.startsWith("rotated")) || pictures !== texts.length)
    failures.push(`${game}: after a spot, the chooser offered ${JSON.stringify(texts)} with ${pictures} tile previews`);
  return true;
}

async function play(game, players) {
  const started = Date.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  await page.selectOption("#ng-game", game);
  await page.fill("#ng-players", String(players));
  await page.dispatchEvent("#ng-players", "change");
  await page.click("form.new-game button[type=submit]");
  await page.waitForSelector(".board", { timeout: 20000 });
  const gameId = page.url().split("/").pop();
  const spectator = await context.newPage();
  spectator.on("pageerror", (e) => errors.push(`spectator: ${String(e)}`));
  await spectator.goto(`${base}#/watch/${game}/${gameId}`);
  await spectator.waitForSelector(".board");
  let clicks = 0;
  let idleSince = Date.now();
  let reloaded = false;
  let restarted = false;
  // The choices made on the board, checked once each game: they must work by clicking.
  let onBoard = game === "wingspan" ? "hand" : game === "undertheleaves" ? "rotation" : "";
  while (clicks < MAX_CLICKS) {
    if (onBoard === "hand" && (await keepStartingBirds(game, page).catch(() => false))) onBoard = "";
    if (onBoard === "rotation" && (await previewRotation(game, page).catch(() => false))) onBoard = "";
    if (await page.locator(".scoreboard.final").count()) break;
    const notice = (await page.locator(".notice").allTextContents()).join(" ").trim();
    if (notice && !/Someone moved|no longer on offer|reconnecting|Not sent yet/.test(notice) && !notice.startsWith("The server")) {
      failures.push(`${game}: notice "${notice}"`);
      break;
    }
    if (!reloaded && clicks >= RELOAD_AT) {
      reloaded = true;
      await spectatorFollows(game, page, spectator, "mid-game");
      await noSecrets(game, spectator, "mid-game");
      await page.screenshot({ path: join(args.out, `${game}-mid.png`) });
      await spectator.screenshot({ path: join(args.out, `${game}-mid-spectator.png`) });
      await page.reload();
      await page.waitForSelector(".board");
    }
    if (!restarted && args.restart === game && clicks >= RESTART_AT) {
      restarted = true;
      await restartService(game);
      await live(game, page, "player's");
      await live(game, spectator, "spectator's");
    }
    if (await clickSomething(page)) {
      clicks++;
      idleSince = Date.now();
    } else if (Date.now() - idleSince > IDLE_LIMIT_MS) {
      failures.push(`${game}: nothing to click for a minute (${await status(page)})`);
      break;
    } else {
      await page.waitForTimeout(100);
    }
  }
  await page.waitForSelector(".scoreboard.final", { timeout: 30000 }).catch(() => failures.push(`${game}: no final score board after ${clicks} clicks`));
  await spectator.waitForSelector(".scoreboard.final", { timeout: 30000 }).catch(() => failures.push(`${game}: the spectator never saw the end`));
  await noSecrets(game, spectator, "at the end");
  await spectatorFollows(game, page, spectator, "at the end");
  await page.screenshot({ path: join(args.out, `${game}-end.png`), fullPage: true });
  await spectator.screenshot({ path: join(args.out, `${game}-spectator.png`), fullPage: true });
  const mine = await page.locator(".scoreboard.final tr.total").textContent({ timeout: 1000 }).catch(() => "");
  const theirs = await spectator.locator(".scoreboard.final tr.total").textContent({ timeout: 1000 }).catch(() => "");
  if (!mine || mine !== theirs) failures.push(`${game}: final totals differ: "${mine}" vs "${theirs}"`);
  const rows = await page.locator(".scoreboard.final tbody tr").allTextContents();
  const theirRows = await spectator.locator(".scoreboard.final tbody tr").allTextContents();
  if (JSON.stringify(rows) !== JSON.stringify(theirRows)) failures.push(`${game}: the spectator's score board differs`);
  const categories = await checkScoreBoard(game, page, gameId);
  if (errors.length) failures.push(`${game}: page errors: ${errors.join("; ")}`);
  if (args.restart === game && !restarted) failures.push(`${game}: ended before the restart (${clicks} clicks)`);
  if (onBoard) failures.push(`${game}: never offered the ${onBoard} choice on the board`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${game}: ${clicks} clicks in ${seconds} s, ${categories} score categories, reloaded ${reloaded}, restarted ${restarted}`);
  await context.close();
}

/** From the served page, the calls a browser needs cross-origin work against each game's
 * browser endpoint (config.js's, or the page's origin): a Connect POST with a JSON body and
 * the x-seat-token header (a CORS preflight) is answered, and its error is readable: a
 * Connect error naming the ErrorInfo reason, not a network failure. */
async function probeConnect() {
  const page = await browser.newPage();
  await page.goto(base);
  for (const [game, service] of Object.entries(SERVICES)) {
    const answer = await page.evaluate(
      async ([game, service]) => {
        const endpoint = window.ROOST_CONFIG?.endpoints?.[game] ?? location.origin;
        try {
          const reply = await fetch(`${endpoint}/${service}/Legal`, {
            method: "POST",
            headers: { "content-type": "application/json", "connect-protocol-version": "1", "x-seat-token": "not-a-token" },
            body: JSON.stringify({ gameId: "nosuchgame" }),
          });
          return { status: reply.status, body: await reply.json() };
        } catch (err) {
          return { error: String(err) };
        }
      },
      [game, service],
    );
    const info = (answer.body?.details ?? []).find((d) => d.type === "google.rpc.ErrorInfo");
    // ErrorInfo's first field is the reason, a string: read it from the message's bytes.
    const reason = info ? (Buffer.from(info.value, "base64").toString("latin1").match(/ERROR_REASON_[A-Z_]+/) ?? [""])[0] : "";
    if (answer.error || !answer.body?.code || !reason) failures.push(`connect: ${game}: ${JSON.stringify(answer)}`);
    else console.log(`connect: ${game}: HTTP ${answer.status}, ${answer.body.code}, ${reason}`);
  }
  await page.close();
}

/** Queue through the matchmaker alone with bots filling the other seat; the page lands on the game. */
async function queue() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(base);
  await page.selectOption("#q-game", "undertheleaves");
  await page.fill("#q-counts", "2");
  await page.fill("#q-party", "e2e-player");
  await page.click("form.queue button[type=submit]");
  await page.waitForSelector("form.queue .notice:has-text('queued')", { timeout: 10000 });
  await page.waitForSelector(".board", { timeout: 120000 });
  const header = (await page.locator(".game-header p").textContent()) ?? "";
  if (!header.includes("Playing as e2e-player")) failures.push(`matchmaking: header says "${header}"`);
  console.log("matchmaking: assigned");
  await page.close();
}

/** One Connect call (JSON) from the served page to a game's browser endpoint; the reply's JSON. */
async function connectCall(page, game, method, body, token) {
  const answer = await page.evaluate(
    async ([game, path, body, token]) => {
      const endpoint = window.ROOST_CONFIG?.endpoints?.[game] ?? location.origin;
      const headers = { "content-type": "application/json", "connect-protocol-version": "1" };
      if (token) headers["x-seat-token"] = token;
      const reply = await fetch(`${endpoint}/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      return { status: reply.status, body: await reply.json() };
    },
    [game, `${SERVICES[game]}/${method}`, body, token ?? ""],
  );
  if (answer.status !== 200) throw new Error(`${method}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The clock's per-move limit of the timed game (s): room for the page's clicks under load. */
const TIMED_MOVE_SECONDS = 8;

/** A timed game (issue 27) whose bot side is made to time out: Under the Leaves with a
 * per-move limit and TIMEOUT_POLICY_FORFEIT, seat 0 played by clicking on the page, seat 1
 * "the bot" played by this script through Connect for its first decision and then silent.
 * While it runs the page shows the clock and a Resign button; the server forfeits the bot
 * at its deadline and the page says so ("Sleepy bot ran out of time."), with the final score
 * board and a Rematch button that, pressed, says the rematch waits for the bot. */
async function timedGame() {
  const game = "undertheleaves";
  const started = Date.now();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  const timeControl = { moveSeconds: TIMED_MOVE_SECONDS, onTimeout: "TIMEOUT_POLICY_FORFEIT" };
  const created = await connectCall(page, game, "NewGame", { common: { players: 2, seatNames: ["You", "Sleepy bot"], timeControl } });
  const token = Object.fromEntries(created.credentials.map((c) => [c.seat ?? 0, c.token]));
  await page.goto(`${base}#/join/${game}/${created.gameId}/0/${encodeURIComponent(token[0])}`);
  await page.waitForSelector(".board", { timeout: 20000 });
  let botDecided = false;
  let sawClock = false;
  let sawResign = false;
  const end = Date.now() + 60000;
  while (Date.now() < end) {
    if (await page.locator(".scoreboard.final").count()) break;
    sawClock ||= (await page.locator(".clock .clock-left").count()) > 0;
    sawResign ||= (await page.locator("button.resign").count()) > 0;
    const state = await connectCall(page, game, "GetState", { gameId: created.gameId });
    const toAct = state.toAct ?? [];
    if (toAct.includes(1) && !botDecided) {
      const legal = await connectCall(page, game, "Legal", { gameId: created.gameId }, token[1]);
      await connectCall(page, game, "Apply", { gameId: created.gameId, expectedVersion: legal.version, actionId: 0 }, token[1]);
      botDecided = true;
    } else if (toAct.includes(0)) {
      if (!(await clickSomething(page))) await page.waitForTimeout(100);
    } else {
      await page.waitForTimeout(200); // the bot's turn: it stays silent until its deadline
    }
  }
  const ending = await page
    .waitForSelector(".ending", { timeout: 20000 })
    .then((el) => el.textContent())
    .catch(() => "");
  if (ending !== "Sleepy bot ran out of time.") failures.push(`timed: the ending line says "${ending}" (${await status(page)})`);
  if (!(await page.locator(".scoreboard.final").count())) failures.push("timed: no final score board");
  if (!sawClock) failures.push("timed: the page never showed the clock");
  if (!sawResign) failures.push("timed: the page never offered Resign");
  const board = await connectCall(page, game, "Score", { gameId: created.gameId });
  if (board.scoreboard?.ending !== "GAME_ENDING_TIMEOUT") failures.push(`timed: the score board's ending is ${board.scoreboard?.ending}`);
  await page.click("button.rematch", { timeout: 5000 }).catch(() => failures.push("timed: no Rematch button"));
  await page
    .waitForSelector(".rematch-state:has-text('waiting for Sleepy bot')", { timeout: 10000 })
    .catch(async () => failures.push(`timed: the rematch line did not appear (${await status(page)})`));
  await page.screenshot({ path: join(args.out, "timed-end.png"), fullPage: true });
  if (errors.length) failures.push(`timed: page errors: ${errors.join("; ")}`);
  console.log(`timed: the bot ran out of time; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await page.close();
}

/** The lobby's "who you are" line once it has settled (not "Getting a guest identity…"). */
async function whoLine(page) {
  await page.waitForSelector("#who:not(:has-text('Getting'))", { timeout: 20000 });
  return ((await page.locator("#who").textContent()) ?? "").trim();
}

/** Guests (issue 28): the page gets a guest identity on its first visit and keeps it across
 * reloads; the matchmaker (IDENTITY_REQUIRED) refuses the page queueing as another id, in
 * words, and seats the guest's queued ticket with bots: the verified guest id plays. */
async function guestStep() {
  const started = Date.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(base);
  const who = await whoLine(page);
  const id = (who.match(/Playing as guest (guest-\w+)/) ?? [])[1];
  if (!id) throw new Error(`the lobby says "${who}"`);
  await page.reload();
  if ((await whoLine(page)) !== who) failures.push(`guest: after a reload the lobby says "${await whoLine(page)}", not "${who}"`);
  const party = await page.inputValue("#q-party");
  if (party !== id) failures.push(`guest: the party field holds "${party}", not the guest id ${id}`);
  await page.selectOption("#q-game", "undertheleaves");
  await page.fill("#q-counts", "2");
  await page.fill("#q-party", "someone-else");
  await page.click("form.queue button[type=submit]");
  await page
    .waitForSelector("form.queue .notice:has-text('as yourself')", { timeout: 10000 })
    .catch(async () => failures.push(`guest: queueing as another id said "${await page.locator("form.queue .notice").textContent()}"`));
  await page.fill("#q-party", id);
  await page.click("form.queue button[type=submit]");
  await page.waitForSelector(".board", { timeout: 60000 });
  const header = (await page.locator(".game-header p").textContent()) ?? "";
  if (!header.includes(`Playing as ${id}`)) failures.push(`guest: the game header says "${header}"`);
  console.log(`guest: ${id} queued and seated; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await context.close();
}

/** A page given `token` the way an embedding page does: config.js sets ROOST_CONFIG.identityToken. */
async function pageWithToken(token) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route("**/config.js", async (route) => {
    const original = await route.fetch();
    const body = `${await original.text()}\nwindow.ROOST_CONFIG.identityToken = ${JSON.stringify(token)};\n`;
    await route.fulfill({ response: original, body });
  });
  const page = await context.newPage();
  await page.goto(base);
  return { context, page };
}

/** Start a table of people only (NewGame on the game service): seat 1 for a person with a link. */
async function startPeopleTable(page) {
  await page.selectOption("#ng-game", "undertheleaves");
  await page.fill("#ng-players", "2");
  await page.dispatchEvent("#ng-players", "change");
  await page.selectOption("#ng-seat-1", "open");
  await page.click("form.new-game button[type=submit]");
}

/** Bring your own identity (issue 28): a token of the test identity provider (E2E_IDP_TOKEN,
 * subject E2E_IDP_SUBJECT) handed to the page is who the lobby says, NewGame on the game
 * service and the matchmaker's queue accept it (no guest is issued); a token signed by
 * another key (E2E_IDP_BAD_TOKEN) is refused with a readable sentence. */
async function identityStep() {
  const started = Date.now();
  const { IDP_TOKEN = "", IDP_SUBJECT = "", IDP_BAD_TOKEN = "" } = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k.startsWith("E2E_")).map(([k, v]) => [k.slice(4), v]),
  );
  if (!IDP_TOKEN || !IDP_SUBJECT || !IDP_BAD_TOKEN) throw new Error("E2E_IDP_TOKEN, E2E_IDP_SUBJECT and E2E_IDP_BAD_TOKEN must be set");
  const good = await pageWithToken(IDP_TOKEN);
  const who = await whoLine(good.page);
  if (who !== `Signed in as ${IDP_SUBJECT}`) failures.push(`identity: the lobby says "${who}"`);
  await startPeopleTable(good.page);
  await good.page
    .waitForSelector("form.new-game .notice:has-text('Share these links')", { timeout: 20000 })
    .catch(async () => failures.push(`identity: NewGame with the provider's token said "${await good.page.locator("form.new-game .notice").textContent()}"`));
  await good.page.selectOption("#q-game", "undertheleaves");
  await good.page.fill("#q-counts", "2");
  await good.page.click("form.queue button[type=submit]");
  await good.page
    .waitForSelector(".board", { timeout: 60000 })
    .catch(async () => failures.push(`identity: queueing with the provider's token said "${await good.page.locator("form.queue .notice").textContent()}"`));
  if (await good.page.evaluate(() => localStorage.getItem("roost.identity.v1"))) failures.push("identity: a guest was stored next to the provider's token");
  await good.context.close();
  const bad = await pageWithToken(IDP_BAD_TOKEN);
  await whoLine(bad.page);
  await startPeopleTable(bad.page);
  const refused = await bad.page
    .waitForSelector("form.new-game .notice:has-text('refused')", { timeout: 20000 })
    .then((el) => el.textContent())
    .catch(async () => `(no refusal) ${await bad.page.locator("form.new-game .notice").textContent()}`);
  if (!refused.includes("refused this page's sign-in") || !refused.includes("bearer token refused")) failures.push(`identity: a wrong token said "${refused}"`);
  else console.log(`identity: a wrong token: ${refused}`);
  await bad.context.close();
  console.log(`identity: the provider's token played; ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** A finished game replayed step by step (issue 30): an Under the Leaves game for two played
 * to its end by this script through Connect (the first legal action of each seat asked), then
 * opened at `#/replay/<game>/<id>?seat=0&v=1` in a page holding seat 0: each Forward press
 * shows the next decision of the record (GetRecord) as the current move, Back goes one back,
 * the last move draws the board and the final score board, a move of the list is jumped to
 * and its link (which holds the version) opens at that move, and the download button saves
 * `<game>-<game id>.json`, the complete record. */
async function replayGame() {
  const game = "undertheleaves";
  const started = Date.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  const created = await connectCall(page, game, "NewGame", { common: { players: 2, seatNames: ["Ann", "Bea"] } });
  const token = Object.fromEntries(created.credentials.map((c) => [c.seat ?? 0, c.token]));
  for (let moves = 0; moves < 2000; moves++) {
    const state = await connectCall(page, game, "GetState", { gameId: created.gameId });
    if (state.status === "GAME_STATUS_FINISHED") break;
    for (const seat of state.toAct ?? []) {
      const legal = await connectCall(page, game, "Legal", { gameId: created.gameId }, token[seat]);
      const id = legal.actions?.[0]?.ref?.id ?? 0;
      await connectCall(page, game, "Apply", { gameId: created.gameId, expectedVersion: legal.version, actionId: id }, token[seat]).catch(() => undefined);
    }
  }
  const { record } = await connectCall(page, game, "GetRecord", { gameId: created.gameId });
  const decisions = record.decisions ?? [];
  const last = Number(decisions[decisions.length - 1]?.version ?? 0);
  if (!record.complete || last < 3) failures.push(`replay: the game did not finish (${decisions.length} decisions)`);
  // Hold seat 0 in this browser (the join link), then open its replay at the first move.
  await page.goto(`${base}#/join/${game}/${created.gameId}/0/${encodeURIComponent(token[0])}`);
  await page.waitForSelector(".board", { timeout: 20000 });
  await page.goto(`${base}#/replay/${game}/${created.gameId}?seat=0&v=1`);
  await page.waitForSelector(".replay-controls", { timeout: 20000 });
  const position = () => page.locator(".replay-position").textContent();
  const current = () => page.locator('.replay-jump[aria-current="step"]').textContent();
  for (let v = 1; v <= last; v++) {
    const d = decisions[v - 1];
    if ((await position()) !== `Move ${v} of ${last}`) {
      failures.push(`replay: at step ${v} the page says "${await position()}"`);
      break;
    }
    const shown = await current();
    if (d.kind !== "new_game" && !shown.includes(d.label || d.kind)) {
      failures.push(`replay: move ${v} shows "${shown}", the record says "${d.label || d.kind}"`);
      break;
    }
    if (v === 2) {
      await page.click("button.replay-back");
      if ((await position()) !== `Move 1 of ${last}`) failures.push("replay: Back did not go back to move 1");
      await page.click("button.replay-forward");
    }
    if (v < last) await page.click("button.replay-forward");
  }
  if (!(await page.locator(".board").count())) failures.push("replay: no board at the last move");
  if (!(await page.locator(".scoreboard").count())) failures.push("replay: no score board at the last move");
  await page.screenshot({ path: join(args.out, "replay-end.png"), fullPage: true });
  await page.click('.replay-jump[data-version="2"]');
  const link = await page.locator("a.replay-share").getAttribute("href");
  if (!link?.includes("seat=0") || !link.includes("v=2")) failures.push(`replay: the shared link is ${link}`);
  const shared = await context.newPage();
  await shared.goto(new URL(link ?? "", base).href);
  await shared.waitForSelector(".replay-controls", { timeout: 20000 });
  const sharedAt = await shared.locator(".replay-position").textContent();
  if (sharedAt !== `Move 2 of ${last}`) failures.push(`replay: the shared link opens at "${sharedAt}"`);
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 20000 }), page.click("button.download-record")]);
  const name = download.suggestedFilename();
  if (name !== `${game}-${created.gameId}.json`) failures.push(`replay: the record downloads as ${name}`);
  const saved = JSON.parse(readFileSync(await download.path(), "utf8"));
  if (saved.game_id !== created.gameId || saved.complete !== true || (saved.decisions ?? []).length !== decisions.length) {
    failures.push("replay: the downloaded record is not the game's complete record");
  }
  if (errors.length) failures.push(`replay: page errors: ${errors.join("; ")}`);
  console.log(`replay: ${last} moves stepped through; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await context.close();
}

console.log(`seed ${args.seed}`);
try {
  if (!args.only.length || args.only.includes("connect")) {
    try {
      await probeConnect();
    } catch (err) {
      failures.push(`connect: ${String(err).split("\n")[0]}`);
    }
  }
  if (!args.only.length || args.only.includes("matchmaking")) {
    try {
      await queue();
    } catch (err) {
      failures.push(`matchmaking: ${String(err).split("\n")[0]}`);
    }
  }
  if (args.only.includes("timed")) {
    try {
      await timedGame();
    } catch (err) {
      failures.push(`timed: ${String(err).split("\n")[0]}`);
    }
  }
  if (args.only.includes("replay")) {
    try {
      await replayGame();
    } catch (err) {
      failures.push(`replay: ${String(err).split("\n")[0]}`);
    }
  }
  for (const [name, step] of [["guest", guestStep], ["identity", identityStep]]) {
    if (!args.only.includes(name)) continue;
    try {
      await step();
    } catch (err) {
      failures.push(`${name}: ${String(err).split("\n")[0]}`);
    }
  }
  for (const [game, players] of Object.entries(TABLES)) {
    if (args.only.length && !args.only.includes(game)) continue;
    try {
      await play(game, players);
    } catch (err) {
      failures.push(`${game}: ${String(err).split("\n")[0]}`);
    }
  }
} finally {
  stdin.close();
  await browser.close();
}
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
