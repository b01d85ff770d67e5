/**
 * Keyboard focus across re-renders. The game page is drawn afresh on every
 * change, so the element that had focus is replaced; this finds its
 * counterpart in the new page (the same board target, or the chooser button
 * with the same text) and focuses it. After a step of a multi-step choice the
 * focus moves to the chooser's first option instead, so the next step is one
 * key away. Announcements (moves by others, errors) go to one persistent
 * polite live region, which survives the re-renders.
 */

/** What has focus now, as a key that survives a re-render. */
export function focusKey(): string | undefined {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return undefined;
  if (el.dataset?.target) return `target:${el.dataset.target}`;
  if (el.closest(".chooser") && el.tagName === "BUTTON") return `button:${el.textContent}`;
  return undefined;
}

/** Focus the counterpart of `key` inside `root`, or the chooser's first option when `toChooser`. */
export function restoreFocus(root: HTMLElement, key: string | undefined, toChooser = false): void {
  let el: HTMLElement | null | undefined;
  if (toChooser) el = root.querySelector<HTMLElement>(".chooser button.choice");
  else if (key?.startsWith("target:")) el = root.querySelector<HTMLElement>(`[data-target="${CSS.escape(key.slice(7))}"].target`);
  else if (key?.startsWith("button:")) {
    const text = key.slice(7);
    el = [...root.querySelectorAll<HTMLElement>(".chooser button")].find((b) => b.textContent === text);
  }
  el?.focus();
}

/** Say something to screen readers without moving focus. */
export function announce(text: string): void {
  let region = document.getElementById("announcer");
  if (!region) {
    region = document.createElement("div");
    region.id = "announcer";
    region.className = "sr-only";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    document.body.appendChild(region);
  }
  region.textContent = text;
}
