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

type Input = BoardInput<View, Catalogue>;

function birdNames(catalogue: Catalogue): (bird: string) => string {
  const names = new Map(catalogue.birds.map((b) => [b.bird, b.name]));
  return (bird) => names.get(bird) ?? bird.replace(/_/g, " ");
}

function counts(list: BirdCount[], name: (b: string) => string): string {
  return list.filter((b) => b.count > 0).map((b) => `${b.count} ${name(b.bird)}`).join(", ") || "no birds";
}

function trackSpace(input: Input, space: TrackSpace, name: (b: string) => string): HTMLElement {
  const chip = space.chip;
  const chipText = !chip
    ? ""
    : chip.faceDown
      ? "face down"
      : chip.kind === ChipKind.ROUND
        ? `round ${chip.round}`
        : chip.birds.map(name).join(" / ") || (ChipKind[chip.kind] ?? "").toLowerCase();
  const who = [
    seatOf(space.occupantSeat) !== undefined ? seatName(input.seats, space.occupantSeat) : "",
    space.lucy ? "Lucy" : "",
  ].filter(Boolean);
  return h(
    "li",
    {
      class: `track-space section-${space.section ?? 0}${who.length ? " occupied" : ""}`,
      "data-target": keyOf("track", space.space),
      "aria-label": `track space ${space.space ?? "?"}: ${chipText || "empty"}${who.length ? `, ${who.join(" and ")}` : ""}`,
    },
    h("span", { class: "space-no" }, String(space.space ?? "?")),
    chipText && h("span", { class: "chip" }, chipText),
    space.icons.length > 0 && h("small", {}, space.icons.join(" ")),
    who.map((w) => h("span", { class: `pawn${w === "Lucy" ? " lucy" : ""}` }, w)),
  );
}

function area(a: AreaView, name: (b: string) => string, own: boolean): HTMLElement {
  const features = [a.tree && "tree", a.lake && "lake", a.nest && "nest"].filter(Boolean) as string[];
  return h(
    "div",
    { class: `area${a.eventArea ? " event-area" : ""}`, "data-target": own ? keyOf("area", a.area) : undefined, "aria-label": `area ${a.id}: ${counts(a.birds, name)}; ${features.join(", ") || "no tree, lake or nest"}` },
    h("h5", {}, a.id, a.eventArea && h("small", {}, " (event)")),
    h("p", { class: "area-birds" }, counts(a.birds, name)),
    h("p", { class: "features" }, features.map((f) => h("span", { class: `feature feature-${f}` }, f))),
    a.nestBirds.length > 0 && h("p", {}, `In the nest: ${a.nestBirds.map(name).join(", ")}`),
    h("p", { class: "capacity" }, `${a.used}/${a.capacity} used`),
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
    h(
      "p",
      { class: "event-card", "data-target": seat.eventCard ? `event:${seat.eventCard}` : undefined },
      seat.eventCard
        ? `Event card ${seat.eventCard}: ${seat.eventBirds.map(name).join(" + ")} · marker ${seat.eventMarker} · ${seat.eventVp} pts`
        : seat.dealtEvents.length
          ? `Event cards to choose from: ${seat.dealtEvents.join(", ")}`
          : "No event card",
    ),
    h("div", { class: "areas" }, seat.areas.map((a) => area(a, name, seat.seat !== undefined && seat.seat === input.viewerSeat))),
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
        h("p", {}, stat("Trees", v.forest?.trees ?? 0), " ", stat("Nests", v.forest?.nests ?? 0), " ", stat("Eggs", v.eggSupply)),
        h("p", {}, `Birds: ${counts(v.forest?.birds ?? [], name)}`),
        (v.forest?.chips.length ?? 0) > 0 && h("p", {}, `Chips: ${v.forest!.chips.map((c) => name(c.bird)).join(", ")}`),
        h("p", {}, `Supply: ${counts(v.supply, name)}`),
      ),
      region(
        "Special birds",
        "specials",
        h("ul", {}, v.specialCards.map((s) => h("li", {}, `${s.name}: cost ${s.cost}, size ${s.size}, ${s.remaining} left`))),
      ),
      region(
        "Milestones",
        "milestones",
        h(
          "ol",
          { class: "birdcage" },
          v.birdcage.map((m) =>
            h(
              "li",
              { "data-target": keyOf("milestone", m.slot), "aria-label": `milestone ${m.tile}: ${m.condition}` },
              h("strong", {}, `${m.letter} ${m.tile}`),
              ` ${m.condition}`,
              m.claimedBy.length > 0 && h("small", {}, ` — claimed by ${m.claimedBy.map((s) => seatName(input.seats, s)).join(", ")}`),
            ),
          ),
        ),
        h("ul", { class: "line-bonuses" }, v.lineBonuses.map((l) => h("li", {}, `${l.line}: ${l.earlyAvailable ? `first: ${l.earlyBonus}; ` : ""}then ${l.regularBonus}`))),
      ),
      events.size > 0 &&
        region(
          "Event cards",
          "events",
          h(
            "ul",
            {},
            [...events].map((card) => {
              const info = input.catalogue.eventCards.find((e) => e.card === card);
              return h("li", { "data-target": `event:${card}` }, `${card}: ${info ? info.birds.map(name).join(" + ") : ""}`);
            }),
          ),
        ),
    ),
    h("div", { class: "aviaries" }, seats.map((s) => aviary(input, s, name))),
  );
}
