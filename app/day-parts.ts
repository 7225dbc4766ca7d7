// A day's times in the parts people name (docs/product.md, Availability): morning before noon,
// afternoon until 18:00, evening after. A plan of short visits offers forty starts a day; the book
// dialog and the doctor's schedule group them so, rather than one long run.
const DAY_PARTS = [
  { key: "morning", from: "00:00", to: "12:00" },
  { key: "afternoon", from: "12:00", to: "18:00" },
  { key: "evening", from: "18:00", to: "24:00" },
] as const;

/** `items` in the parts of the day their time (HH:MM, by `timeOf`) falls in, each part in the order given. */
export function byDayPart<T>(items: readonly T[], timeOf: (item: T) => string) {
  return DAY_PARTS.map((part) => ({
    ...part,
    items: items.filter((item) => timeOf(item) >= part.from && timeOf(item) < part.to),
  }));
}
