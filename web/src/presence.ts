/**
 * Reading the API's `optional` numbers. Seat, slot, space, coordinate and id
 * fields have explicit presence: protobuf-es gives `number | undefined`, and
 * undefined means the server did not say, never 0. Several seat fields also
 * use -1 for "no seat" (a track space nobody occupies, the game itself acting,
 * a spectator). These helpers keep both meanings apart from seat 0.
 */

/** A seat number, or undefined when the field is absent or says "no seat" (-1). */
export function seatOf(value: number | undefined): number | undefined {
  return value === undefined || value < 0 ? undefined : value;
}

/**
 * A target or lookup key such as "hand:15" or "spot:-1,2" from its parts, or
 * undefined when a part is absent: an element without its number cannot be
 * pointed at, and must not collide with the element numbered 0.
 */
export function keyOf(prefix: string, ...parts: (number | string | undefined)[]): string | undefined {
  if (parts.some((p) => p === undefined)) return undefined;
  return `${prefix}:${parts.join(",")}`;
}

/**
 * Order for seat panels: the viewer's own first, then by seat number; a panel
 * without a seat number goes last.
 */
export function viewerFirst(viewerSeat: number): (a: { seat?: number }, b: { seat?: number }) => number {
  const order = (s: { seat?: number }) => (s.seat === undefined ? Number.MAX_SAFE_INTEGER : s.seat);
  return (a, b) =>
    Number(b.seat !== undefined && b.seat === viewerSeat) - Number(a.seat !== undefined && a.seat === viewerSeat) ||
    order(a) - order(b);
}
