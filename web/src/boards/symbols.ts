/**
 * The symbols the boards draw, as small SVG pictures made for this project
 * (no icon set, no licence to track): foods, habitats, nests, eggs, Sky
 * Garden's birds and features, Under the Leaves' terrains and pieces,
 * Birdscaping's rows and foods. Every symbol is an `<span role="img">` with
 * an `aria-label` and a `title` (its text alternative, read by screen
 * readers and shown on hover); the picture inside is hidden from them.
 *
 * `symbol(name)` knows every name in SYMBOLS; an unknown name draws its
 * words in a small box, so a new value in the API never shows a blank.
 */

/** Each symbol's picture (the inside of a 24×24 SVG) and its words. */
const SYMBOLS: Record<string, { label: string; svg: string }> = {
  // Foods (Wingspan; Birdscaping's insect is the invertebrate).
  invertebrate: {
    label: "invertebrate",
    svg: '<path d="M4 15c2-5 4 3 6-2s4 3 6-2 3 1 4 0" fill="none" stroke="#b04a6b" stroke-width="3.2" stroke-linecap="round"/><circle cx="20" cy="11" r="1" fill="#222"/>',
  },
  insect: {
    label: "insect",
    svg: '<ellipse cx="12" cy="14" rx="5" ry="6" fill="#b04a6b"/><circle cx="12" cy="7" r="3" fill="#6b2a40"/><path d="M7 11l-4-2M7 15H3M7 18l-3 2M17 11l4-2M17 15h4M17 18l3 2" stroke="#6b2a40" stroke-width="1.4"/><path d="M12 8v12" stroke="#6b2a40" stroke-width="1"/>',
  },
  seed: {
    label: "seed",
    svg: '<path d="M12 3v18" stroke="#8a6a1f" stroke-width="1.6"/><g fill="#d9a93a"><ellipse cx="9" cy="8" rx="2.4" ry="3.6" transform="rotate(-30 9 8)"/><ellipse cx="15" cy="8" rx="2.4" ry="3.6" transform="rotate(30 15 8)"/><ellipse cx="9" cy="14" rx="2.4" ry="3.6" transform="rotate(-30 9 14)"/><ellipse cx="15" cy="14" rx="2.4" ry="3.6" transform="rotate(30 15 14)"/></g>',
  },
  fish: {
    label: "fish",
    svg: '<path d="M3 12c4-6 11-6 15 0-4 6-11 6-15 0z" fill="#3f7fbf"/><path d="M17 12l5-4v8z" fill="#3f7fbf"/><circle cx="7" cy="11" r="1.2" fill="#fff"/>',
  },
  fruit: {
    label: "fruit",
    svg: '<path d="M12 4c0 3-2 5-3 6M12 4c1 3 3 4 4 5" stroke="#4d7a2a" stroke-width="1.6" fill="none"/><circle cx="8" cy="15" r="4.5" fill="#c8323c"/><circle cx="16" cy="14" r="4.5" fill="#c8323c"/><circle cx="7" cy="13.5" r="1" fill="#fff" opacity=".7"/>',
  },
  rodent: {
    label: "rodent",
    svg: '<ellipse cx="12" cy="14" rx="7" ry="5" fill="#7b6f66"/><circle cx="6" cy="10" r="3" fill="#7b6f66"/><circle cx="5.2" cy="9.5" r=".9" fill="#111"/><path d="M19 15c3 0 3 4 0 5" stroke="#7b6f66" stroke-width="1.4" fill="none"/>',
  },
  wild: {
    label: "any food",
    svg: '<path d="M12 2l2.9 6.3 6.9.8-5.1 4.7 1.4 6.8L12 17.2 5.9 20.6l1.4-6.8L2.2 9.1l6.9-.8z" fill="#e8c547" stroke="#8a6a1f" stroke-width="1"/>',
  },
  // Habitats.
  forest: {
    label: "forest",
    svg: '<path d="M12 2L5 13h4l-3 5h12l-3-5h4z" fill="#3f7d3a"/><rect x="10.8" y="18" width="2.4" height="4" fill="#6b4a2a"/>',
  },
  grassland: {
    label: "grassland",
    svg: '<path d="M3 21c1-6 2-9 4-12M8 21c0-7 1-11 4-15M13 21c0-6 2-9 5-12M18 21c0-4 1-6 3-8" stroke="#b89a28" stroke-width="2.2" fill="none" stroke-linecap="round"/>',
  },
  wetland: {
    label: "wetland",
    svg: '<path d="M2 9c3-3 5 3 8 0s5 3 8 0 4 1 4 1M2 15c3-3 5 3 8 0s5 3 8 0 4 1 4 1" stroke="#3f7fbf" stroke-width="2.4" fill="none" stroke-linecap="round"/>',
  },
  // Nests.
  "nest-bowl": { label: "bowl nest", svg: '<path d="M3 10h18c0 6-4 9-9 9s-9-3-9-9z" fill="#a0733f"/><path d="M5 10h14" stroke="#6b4a2a" stroke-width="1.5"/>' },
  "nest-cavity": { label: "cavity nest", svg: '<rect x="5" y="3" width="14" height="18" rx="3" fill="#8a5a2e"/><circle cx="12" cy="11" r="3.6" fill="#2b1a0c"/>' },
  "nest-ground": { label: "ground nest", svg: '<path d="M2 18h20" stroke="#6b4a2a" stroke-width="2.5"/><path d="M4 17c2-5 14-5 16 0" fill="#c59a5a"/><ellipse cx="12" cy="14" rx="2.5" ry="2" fill="#f3ecd9"/>' },
  "nest-platform": { label: "platform nest", svg: '<path d="M3 13l18-2M3 16l18 1M4 19l16-3M5 11l15 5" stroke="#8a5a2e" stroke-width="2" stroke-linecap="round"/>' },
  "nest-wild": { label: "any nest (star)", svg: '<path d="M12 2l2.9 6.3 6.9.8-5.1 4.7 1.4 6.8L12 17.2 5.9 20.6l1.4-6.8L2.2 9.1l6.9-.8z" fill="#f6f1e4" stroke="#6b4a2a" stroke-width="1.5"/>' },
  "nest-none": { label: "no nest", svg: '<circle cx="12" cy="12" r="8" fill="none" stroke="#888" stroke-width="2"/><path d="M6 18L18 6" stroke="#888" stroke-width="2"/>' },
  egg: { label: "egg", svg: '<path d="M12 3c4 0 7 6 7 11a7 7 0 01-14 0c0-5 3-11 7-11z" fill="#f3ecd9" stroke="#a08a5a" stroke-width="1.4"/>' },
  card: { label: "card", svg: '<rect x="5" y="3" width="14" height="18" rx="2" fill="#fff" stroke="#6b5a3a" stroke-width="1.6"/><path d="M8 8h8M8 12h8M8 16h5" stroke="#b9a98a" stroke-width="1.4"/>' },
  points: { label: "points", svg: '<path d="M12 3c-2 4-7 4-7 10a7 7 0 0014 0c0-6-5-6-7-10z" fill="#2f5e3b"/><path d="M12 9v10" stroke="#cfe3c8" stroke-width="1.3"/>' },
  // Sky Garden birds, features and pieces.
  shimaenaga: { label: "Shimaenaga", svg: bird("#f4f4ef", "#333") },
  warbling_white_eye: { label: "Warbling White-Eye", svg: bird("#8fb34a", "#f4f4ef") },
  hawk: { label: "Hawk", svg: bird("#8a5a2e", "#e8c547") },
  flamingo: { label: "Flamingo", svg: bird("#ef8aa6", "#333") },
  toucan: { label: "Toucan", svg: bird("#2a2a2a", "#f08a24") },
  swan: {
    label: "Swan",
    svg: '<path d="M3 17c0-3 3-5 7-5h5c0-3-1-5-1-8 0-2 3-2 4 0l3 1-3 1c-1 2 0 5 0 8 0 5-4 7-8 7-4 0-7-1-7-4z" fill="#fff" stroke="#333" stroke-width="1"/><circle cx="17" cy="4" r=".9" fill="#111"/>',
  },
  special: { label: "special bird", svg: bird("#7b5fb0", "#e8c547") },
  tree: { label: "tree", svg: '<circle cx="12" cy="9" r="7" fill="#4d8a3a"/><rect x="10.8" y="14" width="2.4" height="8" fill="#6b4a2a"/>' },
  lake: { label: "lake", svg: '<ellipse cx="12" cy="14" rx="9" ry="6" fill="#6fb1de"/><path d="M7 13c2-1 3 1 5 0" stroke="#fff" stroke-width="1.2" fill="none"/>' },
  nest: { label: "nest", svg: '<path d="M3 11h18c0 6-4 9-9 9s-9-3-9-9z" fill="#a0733f"/><ellipse cx="9.5" cy="10" rx="2.2" ry="2.6" fill="#f3ecd9"/><ellipse cx="14.5" cy="10" rx="2.2" ry="2.6" fill="#f3ecd9"/>' },
  funds: { label: "funds", svg: '<circle cx="12" cy="12" r="8.5" fill="#e8c547" stroke="#8a6a1f" stroke-width="1.5"/><path d="M12 7v10M9.5 9.5h4a1.6 1.6 0 010 3h-3a1.6 1.6 0 000 3h4" stroke="#8a6a1f" stroke-width="1.4" fill="none"/>' },
  // Under the Leaves: terrains (a coloured leaf each, puddles as water) and pieces.
  "terrain-pink": { label: "pink leaves", svg: leaf("#f2b6cf") },
  "terrain-yellow": { label: "yellow leaves", svg: leaf("#f3e07a") },
  "terrain-orange": { label: "orange leaves", svg: leaf("#f2a85f") },
  "terrain-purple": { label: "purple leaves", svg: leaf("#b9a2e0") },
  "terrain-green": { label: "green leaves", svg: leaf("#9ccf86") },
  "terrain-puddle": { label: "puddle", svg: '<path d="M4 14c0-4 4-6 8-6s8 2 8 6-4 6-8 6-8-2-8-6z" fill="#8cc4e8"/><path d="M8 13c2-1 3 1 5 0" stroke="#fff" stroke-width="1.2" fill="none"/>' },
  mushroom: { label: "mushroom", svg: '<path d="M3 12a9 7 0 0118 0z" fill="#b33a2e"/><circle cx="8" cy="9" r="1.3" fill="#fff"/><circle cx="14" cy="7.5" r="1.2" fill="#fff"/><path d="M9 12h6v7a3 3 0 01-6 0z" fill="#f3ecd9"/>' },
  bee: { label: "bee", svg: '<ellipse cx="12" cy="14" rx="6" ry="4.5" fill="#f3c431"/><path d="M10 10v8M14 10v8" stroke="#222" stroke-width="1.8"/><ellipse cx="10" cy="8" rx="3" ry="2.2" fill="#d6ecf7" stroke="#7aa" stroke-width=".6"/><ellipse cx="14.5" cy="8" rx="3" ry="2.2" fill="#d6ecf7" stroke="#7aa" stroke-width=".6"/>' },
  hummingbird: { label: "hummingbird", svg: '<path d="M4 13c3-3 8-4 11-2l7-3-6 5c-1 4-6 6-10 4z" fill="#2f9e7a"/><path d="M9 11l-2-7 6 6z" fill="#4fc39b"/><circle cx="15" cy="11" r=".9" fill="#111"/>' },
  "family-leaf": { label: "leaf dweller", svg: leaf("#6f9e4a") },
  "family-puddle": { label: "puddle dweller", svg: '<path d="M12 3c3 5 6 8 6 12a6 6 0 01-12 0c0-4 3-7 6-12z" fill="#3f8fc9"/>' },
  "family-mushroom": { label: "mushroom dweller", svg: '<path d="M3 12a9 7 0 0118 0z" fill="#b33a2e"/><path d="M9 12h6v7a3 3 0 01-6 0z" fill="#f3ecd9"/>' },
  // Birdscaping rows.
  "row-trees": { label: "Trees row", svg: '<path d="M12 2L5 13h4l-3 5h12l-3-5h4z" fill="#3f7d3a"/><rect x="10.8" y="18" width="2.4" height="4" fill="#6b4a2a"/>' },
  "row-garden": { label: "Garden row", svg: '<circle cx="12" cy="9" r="3" fill="#e8c547"/><g fill="#ef8aa6"><circle cx="12" cy="4.5" r="2.6"/><circle cx="16.5" cy="9" r="2.6"/><circle cx="12" cy="13.5" r="2.6"/><circle cx="7.5" cy="9" r="2.6"/></g><path d="M12 15v7" stroke="#4d7a2a" stroke-width="2"/>' },
  "row-pond": { label: "Pond row", svg: '<ellipse cx="12" cy="15" rx="10" ry="5" fill="#6fb1de"/><path d="M8 7v8M11 5v10M16 8v7" stroke="#4d7a2a" stroke-width="1.6"/>' },
};

function bird(body: string, beak: string): string {
  return (
    `<path d="M3 14c0-5 4-8 9-8 3 0 5 2 6 4l4 1-4 2c0 4-4 7-9 7-3 0-6-2-6-6z" fill="${body}" stroke="#333" stroke-width="1"/>` +
    `<path d="M22 11l-4-1v3z" fill="${beak}"/><circle cx="15" cy="10" r="1.1" fill="#111"/><path d="M6 14c2 2 5 2 7 0" stroke="#333" stroke-width="1" fill="none"/>`
  );
}

function leaf(color: string): string {
  return `<path d="M4 20C4 10 10 4 20 4c0 10-6 16-16 16z" fill="${color}" stroke="#5a5a4a" stroke-width="1"/><path d="M4 20L16 8" stroke="#5a5a4a" stroke-width="1"/>`;
}

/** The names a symbol exists for. */
export function symbolNames(): string[] {
  return Object.keys(SYMBOLS);
}

/** The words of a symbol (its text alternative). */
export function symbolLabel(name: string): string {
  return SYMBOLS[name]?.label ?? name.replace(/[-_]/g, " ");
}

/**
 * A symbol as an inline picture with a text alternative. `label` replaces
 * the symbol's own words (e.g. "2 fish"); `size` is in CSS pixels.
 */
export function symbol(name: string, label?: string, size = 18): HTMLElement {
  const words = label ?? symbolLabel(name);
  const el = picture(name, size, words);
  el.setAttribute("aria-label", words);
  el.setAttribute("title", words);
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * The pictures live once in the document, as `<symbol>`s of one hidden
 * sprite; each symbol drawn is a `<use>` of its picture (cheap to build and
 * to re-render).
 */
function ensureSprite(): void {
  if (document.getElementById("roost-symbols")) return;
  const sprite = document.createElementNS(SVG, "svg");
  sprite.id = "roost-symbols";
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("style", "position:absolute;width:0;height:0;overflow:hidden");
  sprite.innerHTML = Object.entries(SYMBOLS)
    .map(([name, s]) => `<symbol id="sym-${name}" viewBox="0 0 24 24">${s.svg}</symbol>`)
    .join("");
  document.body.prepend(sprite);
}

function picture(name: string, size: number, words: string): HTMLElement {
  const el = document.createElement("span");
  el.className = `sym sym-${name.replace(/[^a-z0-9-]/gi, "-")}`;
  el.setAttribute("role", "img");
  if (SYMBOLS[name]) {
    ensureSprite();
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("width", String(size));
    svg.setAttribute("height", String(size));
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", `#sym-${name}`);
    svg.append(use);
    el.append(svg);
  } else {
    const word = document.createElement("span");
    word.className = "sym-word";
    word.setAttribute("aria-hidden", "true");
    word.textContent = words;
    el.append(word);
  }
  return el;
}

/** `count` copies of a symbol in one labelled group ("3 eggs"), or a number beside it when many. */
export function symbols(name: string, count: number, label: string, size = 16): HTMLElement {
  const el = document.createElement("span");
  el.className = "syms";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  el.setAttribute("title", label);
  if (count <= 5) for (let i = 0; i < count; i++) el.append(hidden(symbol(name, undefined, size)));
  else {
    el.append(hidden(symbol(name, undefined, size)));
    const n = document.createElement("span");
    n.className = "sym-count";
    n.setAttribute("aria-hidden", "true");
    n.textContent = `×${count}`;
    el.append(n);
  }
  return el;
}

function hidden(el: HTMLElement): HTMLElement {
  el.removeAttribute("role");
  el.removeAttribute("aria-label");
  el.removeAttribute("title");
  el.setAttribute("aria-hidden", "true");
  return el;
}
