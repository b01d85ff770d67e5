/**
 * The little markdown the how-to-play files use, as DOM elements: `#` and
 * `##` headings, paragraphs, `-` and `1.` lists (one level of nesting by
 * indentation, continuation lines indented), `**bold**`. Text is always set
 * as text, never parsed as HTML.
 */
import { type Child, h } from "../dom.js";

function inline(text: string): Child[] {
  return text.split(/(\*\*[^*]+\*\*)/).filter(Boolean).map((part) => (part.startsWith("**") && part.endsWith("**") ? h("strong", {}, part.slice(2, -2)) : part));
}

interface Item {
  text: string;
  children: { ordered: boolean; items: Item[] } | undefined;
}

const BULLET = /^(\s*)(-|\d+\.)\s+(.*)$/;

/** Render markdown text. */
export function markdown(source: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  const lines = source.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(h(`h${heading[1]!.length + 1}`, {}, inline(heading[2]!)));
      i++;
      continue;
    }
    if (BULLET.test(line)) {
      const top = { ordered: /^\s*\d+\./.test(line), items: [] as Item[] };
      let current: Item | undefined;
      let nested: Item | undefined;
      while (i < lines.length && lines[i]!.trim()) {
        const l = lines[i]!;
        const m = BULLET.exec(l);
        if (m && m[1]!.length === 0) {
          current = { text: m[3]!, children: undefined };
          nested = undefined;
          top.items.push(current);
        } else if (m && current) {
          nested = { text: m[3]!, children: undefined };
          current.children ??= { ordered: /\d/.test(m[2]!), items: [] };
          current.children.items.push(nested);
        } else if (nested) nested.text += ` ${l.trim()}`;
        else if (current) current.text += ` ${l.trim()}`;
        i++;
      }
      out.push(list(top));
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !BULLET.test(lines[i]!) && !/^#/.test(lines[i]!)) para.push(lines[i++]!.trim());
    out.push(h("p", {}, inline(para.join(" "))));
  }
  return out;
}

function list(l: { ordered: boolean; items: Item[] }): HTMLElement {
  return h(l.ordered ? "ol" : "ul", {}, l.items.map((item) => h("li", {}, inline(item.text), item.children && list(item.children))));
}
