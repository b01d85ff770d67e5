// Writes docs/games/<game>-how-to-play.md from the app's own rules text,
// src/howto/rules/<game>.md (the one source: the app shows it in its "How to
// play" panel). A unit test (test/howto.test.ts) fails when a copy differs.
//
// Usage: npm run howto
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
const RULES = join(WEB, "src", "howto", "rules");
const DOCS = join(WEB, "..", "docs", "games");

/** The docs copy of a rules text: the text itself, after a line saying where it comes from. */
export function docCopy(text) {
  return `<!-- Written by \`npm run howto\` in web/ from web/src/howto/rules/: edit that file, not this copy. -->\n${text}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of readdirSync(RULES).filter((f) => f.endsWith(".md"))) {
    const game = file.replace(/\.md$/, "");
    writeFileSync(join(DOCS, `${game}-how-to-play.md`), docCopy(readFileSync(join(RULES, file), "utf8")));
    console.log(`docs/games/${game}-how-to-play.md`);
  }
}
