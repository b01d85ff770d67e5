/**
 * The Sky Garden board: the track of chips with the owners (and Lucy in
 * 2-player games), the standby spaces, the forest board, the supply, the
 * special birds, the milestone cage with its line bonuses, and each seat's
 * aviary: its areas with their birds, trees, lakes and nests, its funds, egg
 * marker, employee and event card. Solo games show the score targets.
 *
 * Target keys: "track:<space>", "standby", "area:<area>", "milestone:<slot>",
 * "event:<card>".
 */
import { h } from "../dom.js";
import type { Catalogue } from "../gen/roost/skygarden/v1/catalogue_pb.js";
import {
  type AreaView,
  type BirdCount,
  ChipKind,
  type Lucy,
  Phase,
  type SeatView,
  Step,
  type TrackSpace,
  type View,
} from "../gen/roost/skygarden/v1/types_pb.js";
import { keyOf, seatOf, viewerFirst } from "../presence.js";
import { type BoardInput, region, seatHeading, seatName, stat } from "./kit.js";
import { symbol, symbolNames } from "./symbols.js";

type Input = BoardInput<View, Catalogue>;

function birdNames(catalogue: Catalogue): (bird: string) => string {
  const names = new Map(catalogue.birds.map((b) => [b.bird, b.name]));
  return (bird) => names.get(bird) ?? bird.replace(/_/g, " ");
}

function counts(list: BirdCount[], name: (b: string) => string): string {
  return list.filter((b) => b.count > 0).map((b) => `${b.count} ${name(b.bird)}`).join(", ") || "no birds";
}

/** A bird's symbol (the special bird's for birds without one of their own). */
function birdSym(bird: string, name: (b: string) => string, size = 18): HTMLElement {
  return symbol(symbolNames().includes(bird) ? bird : "special", name(bird), size);
}

/** Bird counts as symbols with numbers, labelled in words. */
function birdCounts(list: BirdCount[], name: (b: string) => string, empty = "no birds"): HTMLElement {
  const shown = list.filter((b) => b.count > 0);
  return h(
    "span",
    { class: "bird-counts", role: "img", "aria-label": counts(list, name).replace("no birds", empty), title: counts(list, name).replace("no birds", empty) },
    shown.length
      ? shown.map((b) => h("span", { class: "bird-count", "aria-hidden": "true" }, birdSym(b.bird, name), b.count > 1 && h("b", {}, `×${b.count}`)))
      : h("span", { class: "none", "aria-hidden": "true" }, empty),
  );
}

/** What a track space's printed icon does, in words. */
const ICON_WORDS: Record<string, string> = {
  breed: "Breed: every pair in a nest lays an egg",
  purchase_special_bird: "Buy a special bird at full cost",
};

function iconPart(icon: string): HTMLElement {
  const words = ICON_WORDS[icon] ?? icon.replace(/_/g, " ");
  const sym = icon === "breed" ? "nest" : icon === "purchase_special_bird" ? "special" : "card";
  return h("span", { class: "space-icon", title: words }, symbol(sym, words, 14));
}

function trackSpace(input: Input, space: TrackSpace, name: (b: string) => string): HTMLElement {
  const chip = space.chip;
  const chipText = !chip
    ? ""
    : chip.faceDown
      ? "face down"
      : chip.kind === ChipKind.ROUND
        ? `round ${chip.round} chip`
        : chip.kind === ChipKind.ADVERTISEMENT
          ? "advertisement or special bird"
          : chip.birds.map(name).join(" or ") || "chip";
  const who = [
    seatOf(space.occupantSeat) !== undefined ? seatName(input.seats, space.occupantSeat) : "",
    space.lucy ? "Lucy" : "",
  ].filter(Boolean);
  const icons = space.icons.map((i) => ICON_WORDS[i] ?? i.replace(/_/g, " "));
  const picture = !chip
    ? h("span", { class: "chip empty" }, "")
    : chip.faceDown
      ? h("span", { class: "chip face-down", "aria-hidden": "true" }, "?")
      : chip.kind === ChipKind.ROUND
        ? h("span", { class: "chip round-chip", "aria-hidden": "true" }, `R${chip.round}`)
        : chip.kind === ChipKind.ADVERTISEMENT
          ? h("span", { class: "chip ad-chip", "aria-hidden": "true" }, symbol("funds", "advertisement"), symbol("special", "special bird"))
          : h("span", { class: "chip bird-chip", "aria-hidden": "true" }, chip.birds.map((b) => birdSym(b, name, 22)));
  return h(
    "li",
    {
      class: `track-space section-${space.section ?? 0}${who.length ? " occupied" : ""}`,
      "data-target": keyOf("track", space.space),
      "aria-label": `track space ${space.space ?? "?"}: ${chipText || "empty"}${icons.length ? `; ${icons.join("; ")}` : ""}${who.length ? `; ${who.join(" and ")} here` : ""}`,
      title: `${chipText}${icons.length ? ` — ${icons.join("; ")}` : ""}`,
    },
    h("span", { class: "space-no", "aria-hidden": "true" }, String(space.space ?? "?")),
    picture,
    chip && !chip.faceDown && chip.kind !== ChipKind.ROUND && h("span", { class: "chip-name", "aria-hidden": "true" }, chip.kind === ChipKind.ADVERTISEMENT ? "ad / special" : chipText),
    space.icons.length > 0 && h("span", { class: "space-icons", "aria-hidden": "true" }, space.icons.map(iconPart)),
    who.map((w) => h("span", { class: `pawn${w === "Lucy" ? " lucy" : ""}`, "aria-hidden": "true" }, w)),
  );
}

function area(a: AreaView, name: (b: string) => string, own: boolean): HTMLElement {
  const features = [a.tree && "tree", a.lake && "lake", a.nest && "nest"].filter(Boolean) as string[];
  return h(
    "div",
    {
      class: `area${a.eventArea ? " event-area" : ""}`,
      "data-target": own ? keyOf("area", a.area) : undefined,
      "aria-label": `area ${a.id}${a.eventArea ? " (event area)" : ""}: ${counts(a.birds, name)}; ${features.join(", ") || "no tree, lake or nest"}; ${a.used} of ${a.capacity} spaces used`,
    },
    h("h5", {}, a.id, a.eventArea && h("small", {}, " event area")),
    h("p", { class: "area-birds" }, birdCounts(a.birds, name)),
    h("p", { class: "features" }, features.map((f) => symbol(f, f, 20))),
    a.nestBirds.length > 0 && h("p", { class: "in-nest" }, symbol("nest", "in the nest", 16), a.nestBirds.map((b) => birdSym(b, name, 16))),
    h("p", { class: "capacity", title: `${a.used} of ${a.capacity} spaces used` }, h("span", { class: "meter", "aria-hidden": "true" }, Array.from({ length: a.capacity }, (_x, i) => h("span", { class: i < a.used ? "used" : "" }))), ` ${a.used}/${a.capacity}`),
  );
}

/** An Event card: the birds of a set and what 1, 2, … sets are worth in income and points. */
function eventFace(input: Input, card: string, name: (b: string) => string, target?: string): HTMLElement {
  const info = input.catalogue.eventCards.find((e) => e.card === card);
  const birds = info?.birds ?? [];
  return h(
    "article",
    { class: "card event-face", "data-target": target, "aria-label": `Event card: sets of ${birds.map(name).join(" and ")}` },
    h("h4", {}, "Event: ", birds.map((b) => birdSym(b, name, 20)), h("span", { class: "set-words" }, birds.map(name).join(" + "))),
    info &&
      h(
        "table",
        { class: "event-table" },
        h("tr", {}, h("th", { scope: "row" }, "sets"), info.vp.map((_v, i) => h("td", {}, String(i + 1)))),
        h("tr", {}, h("th", { scope: "row" }, "income"), info.income.map((v) => h("td", {}, String(v)))),
        h("tr", {}, h("th", { scope: "row" }, "points"), info.vp.map((v) => h("td", {}, String(v)))),
      ),
  );
}

function aviary(input: Input, seat: SeatView, name: (b: string) => string): HTMLElement {
  const score = seat.seat === undefined ? undefined : input.view.scores.find((s) => s.seat === seat.seat);
  return h(
    "section",
    { class: `aviary${seat.seat !== undefined && seat.seat === input.viewerSeat ? " own" : ""}`, "aria-label": `${seatName(input.seats, seat.seat)}'s aviary` },
    seatHeading(input, seat.seat),
    h(
      "p",
      { class: "facts" },
      score && stat("Score", score.total, "score"),
      stat("Funds", seat.funds, "funds"),
      stat("Egg marker", `${seat.eggMarker} (${seat.eggPoints} pts)`),
      stat("Milestones", seat.milestonesAchieved),
      seat.employee && stat("Employee", seat.employee),
      seat.nestBox.length > 0 && stat("Nest box", seat.nestBox.map(name).join(", ")),
      seat.additionalArea && stat("Additional area", seat.additionalArea),
      seat.finishedRound && h("span", { class: "tag" }, "finished the round"),
    ),
    seat.eventCard
      ? h("div", { class: "event-own" }, eventFace(input, seat.eventCard, name), h("p", { class: "event-progress" }, stat("Event marker", seat.eventMarker), " ", stat("Event points", seat.eventVp)))
      : seat.dealtEvents.length > 0
        ? h("div", { class: "event-choice" }, h("p", {}, "Event cards to choose from:"), h("div", { class: "cards" }, seat.dealtEvents.map((c) => eventFace(input, c, name, `event:${c}`))))
        : h("p", { class: "event-card" }, "No event card"),
    h("div", { class: "areas" }, seat.areas.map((a) => area(a, name, seat.seat !== undefined && seat.seat === input.viewerSeat))),
  );
}

/** What a line bonus gives, in the rulebook's words ("r1" is the top row, "c1" the left column). */
function lineName(line: string): string {
  const n = line.slice(1);
  return line.startsWith("r") ? `row ${n}` : line.startsWith("c") ? `column ${n}` : line;
}

/**
 * The Birdcage: the nine milestone tiles as the 3-by-3 grid they lie in,
 * each with its condition and who achieved it; each row's bonus at its left,
 * each column's below it (the early bonus while its tile is there).
 */
function milestones(input: Input): HTMLElement {
  const v = input.view;
  const bonus = (line: string) => {
    const l = v.lineBonuses.find((b) => b.line === line);
    if (!l) return h("div", { class: "line-bonus" });
    const words = `${lineName(line)} complete: ${l.earlyAvailable ? `first gets ${l.earlyBonus}, then ` : ""}${l.regularBonus}`;
    return h("div", { class: "line-bonus", title: words, "aria-label": words }, l.earlyAvailable && h("span", { class: "early" }, `first: ${l.earlyBonus}`), h("span", {}, l.earlyAvailable ? `then ${l.regularBonus}` : l.regularBonus));
  };
  const tile = (m: (typeof v.birdcage)[number] | undefined) =>
    m
      ? h(
          "div",
          { class: `milestone${m.claimedBy.length ? " claimed" : ""}`, "data-target": keyOf("milestone", m.slot), "aria-label": `milestone: ${m.condition}${m.claimedBy.length ? `; achieved by ${m.claimedBy.map((s) => seatName(input.seats, s)).join(", ")}` : ""}` },
          h("span", { class: "condition" }, m.condition),
          m.claimedBy.length > 0 && h("span", { class: "cubes" }, m.claimedBy.map((s) => h("span", { class: `cube seat-${s}`, title: seatName(input.seats, s) }, seatName(input.seats, s)))),
        )
      : h("div", { class: "milestone empty" });
  const at = (slot: number) => v.birdcage.find((m) => m.slot === slot);
  return region(
    "Milestones",
    "milestones",
    h(
      "div",
      { class: "birdcage-grid" },
      [0, 1, 2].map((r) => [bonus(`r${r + 1}`), [0, 1, 2].map((c) => tile(at(r * 3 + c)))]),
      h("div", {}),
      [0, 1, 2].map((c) => bonus(`c${c + 1}`)),
    ),
  );
}

/** Where Lucy stands: a standby slot (-1 or absent when not on standby) or a track space (0 before she moves). */
function lucyWhere(lucy: Lucy): string {
  if (lucy.standbySlot !== undefined && lucy.standbySlot >= 0) return `on standby ${lucy.standbySlot + 1}`;
  return lucy.space ? `on track space ${lucy.space}` : "at the start of the track";
}

/** Draw the Sky Garden board. */
export function renderSkyGarden(input: Input): HTMLElement {
  const v = input.view;
  const name = birdNames(input.catalogue);
  const seats = [...v.seats].sort(viewerFirst(input.viewerSeat));
  const events = new Set(v.seats.flatMap((s) => s.dealtEvents));
  return h(
    "div",
    { class: "board board-skygarden" },
    h(
      "p",
      { class: "status-line" },
      stat("Round", `${v.round} of ${v.rounds}`),
      " ",
      stat("Phase", (Phase[v.phase] ?? "").toLowerCase().replace(/_/g, " ")),
      seatOf(v.turn?.seat) !== undefined && [" ", stat("Turn", `${seatName(input.seats, v.turn!.seat)}, ${(Step[v.turn!.step] ?? "").toLowerCase()}`)],
      v.turn?.pendingBird && [" ", stat("Bird to place", name(v.turn.pendingBird))],
      v.solo && [" ", stat("Solo targets", v.solo.targets.join(" / ")), " ", stat("Reached", v.solo.targetReached || "none")],
    ),
    region(
      "Track",
      "track",
      h("ol", { class: "track-spaces" }, v.track.map((s) => trackSpace(input, s, name))),
      h(
        "ul",
        { class: "standby-spaces", "data-target": "standby", "aria-label": "standby spaces" },
        v.standby.map((s) =>
          h(
            "li",
            {},
            `${s.label || (s.slot !== undefined ? `standby ${s.slot + 1}` : "standby")} (${s.vp} pts)`,
            seatOf(s.occupantSeat) !== undefined && h("span", { class: "pawn" }, ` ${seatName(input.seats, s.occupantSeat)}`),
            s.lucy && h("span", { class: "pawn lucy" }, " Lucy"),
          ),
        ),
      ),
      v.lucy?.present &&
        h("p", { class: "lucy-line" }, `Lucy (the 2-player neutral bird) is ${lucyWhere(v.lucy)}${v.lucy.finishedRound ? ", finished the round" : ""}.`),
    ),
    h(
      "div",
      { class: "shared" },
      region(
        "Forest board",
        "forest",
        h("p", { class: "forest-stock" }, symbol("tree", "trees"), h("b", {}, String(v.forest?.trees ?? 0)), " ", symbol("nest", "nests"), h("b", {}, String(v.forest?.nests ?? 0)), " ", symbol("egg", "eggs in the supply"), h("b", {}, String(v.eggSupply))),
        h("p", {}, h("span", { class: "stat-label" }, "Birds for sale (2 funds): "), birdCounts(v.forest?.birds ?? [], name, "none")),
        (v.forest?.chips.length ?? 0) > 0 &&
          h(
            "p",
            { class: "forest-chips" },
            h("span", { class: "stat-label" }, "Green chips: "),
            v.forest!.chips.map((c) =>
              h(
                "span",
                { class: `forest-chip${c.bird ? "" : " bought"}`, title: `${name(c.chipBird)} chip${c.bird ? `, ${name(c.bird)} token on it` : ", token bought"}` },
                birdSym(c.chipBird || c.bird, name, 18),
                !c.bird && h("small", {}, "bought"),
              ),
            ),
          ),
        h("p", {}, h("span", { class: "stat-label" }, "Supply: "), birdCounts(v.supply, name, "empty")),
      ),
      region(
        "Special birds",
        "specials",
        h(
          "ul",
          { class: "special-cards" },
          v.specialCards.map((sc) =>
            h(
              "li",
              { class: "card special-card", "aria-label": `${sc.name}: costs ${sc.cost} funds, takes ${sc.size} spaces, ${sc.remaining} left` },
              birdSym(sc.bird, name, 26),
              h("strong", {}, sc.name),
              h("span", { class: "special-facts", "aria-hidden": "true" }, symbol("funds", "cost"), String(sc.cost), " · size ", String(sc.size), ` · ${sc.remaining} left`),
            ),
          ),
        ),
      ),
      milestones(input),
      events.size > 0 &&
        region(
          "Event cards",
          "events",
          h("div", { class: "cards" }, [...events].map((card) => eventFace(input, card, name, `event:${card}`))),
        ),
    ),
    h("div", { class: "aviaries" }, seats.map((s) => aviary(input, s, name))),
  );
}
