// Calendar days as YYYY-MM-DD (contract/fields.ts checks them), counted the same way by the API and
// the web app. The arithmetic is done in UTC, where every day has 24 hours.
const DAY_MS = 86_400_000;
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The day `n` days after `date` (before it when `n` is negative). */
export const addDays = (date: string, n: number) => new Date(utc(date) + n * DAY_MS).toISOString().slice(0, 10);

/** How many days `to` is after `from`: 0 on the same day. */
export const daysFrom = (from: string, to: string) => Math.round((utc(to) - utc(from)) / DAY_MS);
