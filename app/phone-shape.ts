// What the browser checks of a phone number: its shape only (digits, with the spaces, dots, dashes
// and brackets people write, an optional leading +). Whether the number is one (a country's
// numbering plan) is the server's to say, with libphonenumber-js (ADR 0008), whose metadata stays out
// of the pages (docs/performance.md, First visit).
const PHONE_SHAPE = /^\+?[\d\s.()-]*$/;

/**
 * How a form's schema checks a phone number: `hasPhoneShape` in the browser, `isPhoneNumber`
 * (app/phone.server.ts: the shape, then the numbering plans) in the action, one schema for both.
 */
export type PhoneCheck = (value: string) => boolean;

/** True when `value` is written like a phone number with 6 to 15 digits. */
export function hasPhoneShape(value: string): boolean {
  const digits = value.replace(/\D/g, "").length;
  return PHONE_SHAPE.test(value.trim()) && digits >= 6 && digits <= 15;
}
