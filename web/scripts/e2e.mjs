// End-to-end: plays a game of each kind against bots in headless Chromium,
// through the page only (lobby form, clicks on the board and the chooser),
// with a second page watching as a spectator and a reload in the middle.
//
// Then queues through the matchmaker with bots filling the other seat.
//
// Usage: node scripts/e2e.mjs <base url of the served app> [game ... | matchmaking]
// The app at that URL must reach the services' browser endpoints (see
// src/config.ts). CHROMIUM overrides /usr/bin/chromium.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(WEB, "test-results", "e2e");
const [base, ...only] = process.argv.slice(2);
if (!base) throw new Error("usage: node scripts/e2e.mjs <base url> [game ...]");
const TABLES = { skygarden: 2, wingspan: 2, birdscaping: 1, undertheleaves: 2 };
const MAX_CLICKS = 3000;

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const failures = [];

/** Click one thing the page offers: a board target or a chooser option, at random. */
async function clickSomething(page) {
  const options = page.locator(".target, .chooser button.choice");
  const n = await options.count();
  if (!n) return false;
  // The page re-renders as others move: an option may be gone by the time it is clicked.
  return options
    .nth(Math.floor(Math.random() * n))
    .click({ timeout: 2000 })
    .then(() => true)
    .catch(() => false);
}

async function play(game, players) {
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
  const url = page.url();
  const gameId = url.split("/").pop();
  const spectator = await context.newPage();
  await spectator.goto(`${base}#/watch/${game}/${gameId}`);
  await spectator.waitForSelector(".board");
  let clicks = 0;
  let reloaded = false;
  let idle = 0;
  while (clicks < MAX_CLICKS) {
    if (await page.locator(".scoreboard.final").count()) break;
    const notice = (await page.locator(".notice").textContent()) ?? "";
    if (notice && !/Someone moved|no longer on offer/.test(notice) && !notice.startsWith("The server")) {
      failures.push(`${game}: notice "${notice}"`);
      break;
    }
    if (await clickSomething(page)) {
      clicks++;
      idle = 0;
      if (clicks === 10 && !reloaded) {
        await page.screenshot({ path: join(OUT, `${game}-mid.png`), fullPage: true });
        await page.reload();
        await page.waitForSelector(".board");
        reloaded = true;
      }
    } else {
      idle++;
      if (idle > 600) {
        failures.push(`${game}: nothing to click for a minute`);
        break;
      }
    }
    await page.waitForTimeout(100);
  }
  await page.waitForSelector(".scoreboard.final", { timeout: 30000 }).catch(() => failures.push(`${game}: no final score board after ${clicks} clicks`));
  await spectator.waitForSelector(".scoreboard.final", { timeout: 30000 }).catch(() => failures.push(`${game}: the spectator never saw the end`));
  if (await spectator.locator(".hand, .chooser").count()) failures.push(`${game}: the spectator sees a hand or choices`);
  await page.screenshot({ path: join(OUT, `${game}-end.png`), fullPage: true });
  await spectator.screenshot({ path: join(OUT, `${game}-spectator.png`), fullPage: true });
  const mine = await page.locator(".scoreboard.final tr.total").textContent({ timeout: 1000 }).catch(() => "");
  const theirs = await spectator.locator(".scoreboard.final tr.total").textContent({ timeout: 1000 }).catch(() => "");
  if (mine !== theirs) failures.push(`${game}: final totals differ: ${mine} vs ${theirs}`);
  const categories = await page.locator(".scoreboard.final tbody tr").count();
  if (categories < 3) failures.push(`${game}: score board has ${categories} rows`);
  if (errors.length) failures.push(`${game}: page errors: ${errors.join("; ")}`);
  console.log(`${game}: ${clicks} clicks, reloaded ${reloaded}`);
  await context.close();
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

try {
  if (!only.length || only.includes("matchmaking")) {
    try {
      await queue();
    } catch (err) {
      failures.push(`matchmaking: ${String(err).split("\n")[0]}`);
    }
  }
  for (const [game, players] of Object.entries(TABLES)) {
    if (only.length && !only.includes(game)) continue;
    try {
      await play(game, players);
    } catch (err) {
      failures.push(`${game}: ${String(err).split("\n")[0]}`);
    }
  }
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
