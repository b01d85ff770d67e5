// Browser smoke test of every board: serves web/dist, opens each recorded
// position in fixture mode in headless Chromium (Debian's package, driven by
// playwright-core through its executablePath; no browser download), checks
// that the board draws without a page error and that its legal targets are
// buttons, and saves a screenshot per position at 1280x800 and at phone size
// into web/test-results/screenshots/ (a few are copied to docs/screenshots/
// for the README).
//
// Usage: node scripts/screenshots.mjs   (after `npm run build`)
// CHROMIUM=/path/to/chromium overrides /usr/bin/chromium.
import { mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(WEB, "test-results", "screenshots");
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

const positions = readdirSync(join(WEB, "test", "fixtures")).flatMap((game) =>
  readdirSync(join(WEB, "test", "fixtures", game))
    .filter((f) => f.endsWith(".json") && f !== "catalogue.json")
    .map((f) => `${game}/${f.replace(/\.json$/, "")}`),
);

mkdirSync(OUT, { recursive: true });
const server = await serve(join(WEB, "dist"));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const failures = [];
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
      await page.screenshot({ path: join(OUT, `${position.replace("/", "-")}-${size}.png`), fullPage: size === "desktop" });
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
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`${positions.length * 2} screenshots in ${OUT}`);
