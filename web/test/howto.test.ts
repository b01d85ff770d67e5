// How to play (src/howto): one source for the app's panel and docs/games.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOW_TO_PLAY, howToPlayButton, renderHowToPlay } from "../src/howto/howto.js";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { docCopy } from "../scripts/howto-docs.mjs";
import { markdown } from "../src/howto/markdown.js";
import { GAMES } from "../src/registry.js";

const DOCS = join(__dirname, "..", "..", "docs", "games");

describe("how to play", () => {
  it("has the rules of every game, and docs/games/<game>-how-to-play.md is the same text (else: npm run howto)", () => {
    for (const g of GAMES) {
      expect(HOW_TO_PLAY[g.name], `src/howto/rules/${g.name}.md is missing`).toBeDefined();
      const doc = readFileSync(join(DOCS, `${g.name}-how-to-play.md`), "utf8");
      expect(doc, `docs/games/${g.name}-how-to-play.md differs from src/howto/rules/${g.name}.md: run npm run howto`).toBe(docCopy(HOW_TO_PLAY[g.name]!));
    }
  });

  it("draws each game's rules with a title, sections and lists, and no markdown marks left", () => {
    for (const g of GAMES) {
      const el = renderHowToPlay(g.name);
      expect(el.querySelector("h2")!.textContent, g.name).toMatch(/^How to play /);
      expect(el.querySelectorAll("h3").length, g.name).toBeGreaterThanOrEqual(3);
      expect(el.querySelectorAll("li").length, g.name).toBeGreaterThan(3);
      expect(el.textContent, g.name).not.toMatch(/\*\*|^#|\n- /m);
    }
  });

  it("reads nested lists, continuation lines and bold words", () => {
    const [list] = markdown("1. **Take** a tile\n   and more\n2. See:\n   - bees\n   - birds\n");
    expect(list!.tagName).toBe("OL");
    expect(list!.children[0]!.textContent).toBe("Take a tile and more");
    expect(list!.querySelector("strong")!.textContent).toBe("Take");
    expect(list!.querySelectorAll("ul li")).toHaveLength(2);
  });

  it("opens the rules in a panel that survives the page being drawn again, and closes it", () => {
    const button = howToPlayButton("wingspan");
    button.click();
    const dialog = document.getElementById("how-to-play-wingspan") as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(dialog.textContent).toContain("How to play Wingspan");
    howToPlayButton("wingspan").click();
    expect(dialog.open).toBe(false);
  });
});
