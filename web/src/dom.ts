/**
 * A ten-line stand-in for a view framework: `h(tag, attrs, ...children)`
 * builds real DOM elements. Attributes starting with "on" become event
 * listeners; `false`, `null` and `undefined` children and attributes are
 * skipped, so conditional parts read as `cond && h(...)`.
 */
export type Child = Node | string | number | false | null | undefined | Child[];
export type Attrs = Record<string, unknown>;

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === "class") {
      el.className = String(value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children (strings become text nodes, arrays are flattened). */
export function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `el`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** "SETUP_STAGE_BIRDS"-like or "snake_case" names as words: "birds", "bonus cards". */
export function words(name: string): string {
  return name.toLowerCase().replace(/_/g, " ");
}
