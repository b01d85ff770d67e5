// Browser test of every board: serves web/dist, opens each recorded position
// in fixture mode in headless Chromium (Debian's package, driven by
// playwright-core through its executablePath; no browser download), and
// checks, at 1280x800 and at phone size, that the board draws without a page
// error, that its legal targets are buttons, that no text overflows its box
// (element geometry: a box whose content is wider or taller than itself,
// unless it scrolls by design) and that no raw id reaches the player (in the
// text, the labels or the tooltips: snake_case or ENUM_CASE words, empty
// lists like "Chips: ,", milestone codes like "C C3", "undefined"). It saves
// a screenshot per position into web/test-results/screenshots/ and compares
// one board per game and size against its reference picture in
// docs/screenshots/ (the README's), with a tolerance.
//
// Usage: node scripts/screenshots.mjs            (after `npm run build`)
//        node scripts/screenshots.mjs --update   (write the reference pictures)
//        node scripts/screenshots.mjs --only birdscaping   (some positions only)
// CHROMIUM=/path/to/chromium overrides /usr/bin/chromium.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(WEB, "test-results", "screenshots");
const DOCS = join(WEB, "..", "docs", "screenshots");
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const UPDATE = process.argv.includes("--update");
/** `--only wingspan` (or `wingspan/2p`): only the positions whose name starts so. */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : "";
/** The board of each game compared with docs/screenshots/<game>.png (the whole page) and <game>-phone.png (the phone's screen). */
const REFERENCES = { wingspan: "wingspan/2p-mid", undertheleaves: "undertheleaves/2p-wide", skygarden: "skygarden/2p-mid", birdscaping: "birdscaping/2p-mid" };
/** At most this share of pixels may differ (by more than PIXEL_DELTA in a channel) from the reference. */
const MAX_DIFFERENT = 0.01;
const PIXEL_DELTA = 48;

/** In the page: boxes whose content overflows them (not scroll containers), as "selector: text". */
function overflowing() {
  const bad = [];
  for (const el of document.querySelectorAll(".game-page *")) {
    if (el.closest("svg") || el.closest("dialog:not([open])")) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "inline" || cs.display === "contents" || cs.display === "none") continue;
    if (/auto|scroll/.test(cs.overflowX) || /auto|scroll/.test(cs.overflowY)) continue;
    if (!el.clientWidth && !el.clientHeight) continue;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1;
    if (!wide && !tall) continue;
    const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
    bad.push(`${name} ${wide ? "wider" : "taller"} than its box: "${(el.textContent ?? "").trim().slice(0, 50)}"`);
  }
  return bad;
}

/** In the page: words a player should never read (raw ids, codes, empty lists). */
function rawIds() {
  const page = document.querySelector(".game-page");
  if (!page) return [];
  const texts = [page.innerText];
  for (const el of page.querySelectorAll("[aria-label], [title]")) texts.push(el.getAttribute("aria-label") ?? "", el.getAttribute("title") ?? "");
  const patterns = [/\b[a-z]+(?:_[a-z0-9]+)+\b/, /\b[A-Z]{2,}(?:_[A-Z0-9]+)+\b/, /\w: *,/, /\b[A-D] [A-D][1-4]\b/, /\bundefined\b|\bNaN\b|\[object /];
  const found = new Set();
  for (const text of texts) for (const p of patterns) {
    const m = p.exec(text);
    if (m) found.add(m[0]);
  }
  return [...found];
}

/** In a blank page: the share of pixels that differ between two PNGs (data URLs), or a reason they cannot be compared. */
async function difference(page, actual, expected) {
  return page.evaluate(
    async ([a, b, delta]) => {
      const load = (src) => new Promise((ok, fail) => { const img = new Image(); img.onload = () => ok(img); img.onerror = fail; img.src = src; });
      const [x, y] = await Promise.all([load(a), load(b)]);
      if (x.width !== y.width || x.height !== y.height) return `size ${x.width}x${x.height}, reference ${y.width}x${y.height}`;
      const pixels = (img) => { const c = document.createElement("canvas"); c.width = img.width; c.height = img.height; const g = c.getContext("2d"); g.drawImage(img, 0, 0); return g.getImageData(0, 0, img.width, img.height).data; };
      const p = pixels(x);
      const q = pixels(y);
      let differ = 0;
      for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - q[i]) > delta || Math.abs(p[i + 1] - q[i + 1]) > delta || Math.abs(p[i + 2] - q[i + 2]) > delta) differ++;
      return differ / (p.length / 4);
    },
    [actual, expected, PIXEL_DELTA],
  );
}

const dataUrl = (file) => `data:image/png;base64,${readFileSync(file).toString("base64")}`;

const positions = readdirSync(join(WEB, "test", "fixtures")).flatMap((game) =>
  readdirSync(join(WEB, "test", "fixtures", game))
    .filter((f) => f.endsWith(".json") && f !== "catalogue.json")
    .map((f) => `${game}/${f.replace(/\.json$/, "")}`),
).filter((p) => !ONLY || p.startsWith(ONLY));

mkdirSync(OUT, { recursive: true });
const server = await serve(join(WEB, "dist"));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const failures = [];
/** The screenshots to compare with (or, with --update, to write as) the reference pictures. */
const shots = [];
try {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const page = await browser.newPage({ viewport });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    for (const position of positions) {
      errors.length = 0;
      await page.goto(`${base}?fixture=${position}`);
      await page.waitForSelector(".board", { timeout: 10000 });
      const targets = await page.locator("[data-target].target").count();
      const buttons = await page.locator("[data-target].target[role=button][tabindex='0']").count();
      if (errors.length) failures.push(`${position} ${size}: ${errors.join("; ")}`);
      if (targets !== buttons) failures.push(`${position} ${size}: ${targets - buttons} targets are not buttons`);
      for (const o of await page.evaluate(overflowing)) failures.push(`${position} ${size}: ${o}`);
      for (const id of await page.evaluate(rawIds)) failures.push(`${position} ${size}: shows a raw id or code "${id}"`);
      const shot = join(OUT, `${position.replace("/", "-")}-${size}.png`);
      await page.screenshot({ path: shot, fullPage: size === "desktop" });
      const game = position.split("/")[0];
      if (REFERENCES[game] === position) shots.push({ shot, reference: join(DOCS, `${game}${size === "phone" ? "-phone" : ""}.png`) });
    }
    await page.close();
  }
  // Keyboard: a tile spot is reached with Tab and chosen with Enter, then the
  // chooser asks for the rotation.
  const page = await browser.newPage({ viewport: SIZES.desktop });
  await page.goto(`${base}?fixture=undertheleaves/2p-wide`);
  await page.waitForSelector(".spot.target");
  let reached = false;
  for (let i = 0; i < 80 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.classList.contains("spot") ?? false);
  }
  if (!reached) failures.push("keyboard: Tab never reaches a tile spot");
  else {
    await page.keyboard.press("Enter");
    const steps = await page.locator(".chooser button.choice").allTextContents();
    if (!steps.length || !steps.every((t) => t.startsWith("rotated"))) failures.push(`keyboard: Enter on a spot offered ${steps.join(", ")}`);
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
    if (!focused.startsWith("rotated")) failures.push(`keyboard: focus after Enter is on "${focused}", not the next step`);
  }
  await page.close();
  // The reference pictures: each board as the README shows it, within the tolerance.
  const blank = await browser.newPage();
  for (const { shot, reference } of shots) {
    if (UPDATE) {
      copyFileSync(shot, reference);
      continue;
    }
    if (!existsSync(reference)) {
      failures.push(`no reference picture ${reference} (npm run screenshots -- --update writes it)`);
      continue;
    }
    const share = await difference(blank, dataUrl(shot), dataUrl(reference));
    if (typeof share === "string" || share > MAX_DIFFERENT)
      failures.push(`${shot} differs from ${reference}: ${typeof share === "string" ? share : `${(share * 100).toFixed(2)}% of pixels`} (look at both; if the change is meant, npm run screenshots -- --update)`);
  }
  await blank.close();
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`${positions.length * 2} screenshots in ${OUT}`);
