// What every router of the API is given (api/app.ts builds them all with it). A module of its own so
// that the routers need not import app.ts, which imports them.
import type { Db } from "./db/index.ts";
import type { OutboxMailer } from "./mail/outbox.ts";
import type { TrustProxy } from "./trust-proxy.ts";
import type { BookingLimits } from "./appointment/booking-limits.ts";

export interface ApiDeps {
  db: Db;
  /** Mail is queued in the outbox, never sent inside a request (api/mail/outbox.ts). */
  mailer: OutboxMailer;
  /** TRUST_PROXY (api/trust-proxy.ts); the web tier on loopback is trusted in any case. */
  trustProxy?: TrustProxy;
  /** CODE_RESEND_SECONDS: how soon a profile-gate code may be replaced (api/auth/codes.ts's default otherwise). */
  codeResendSeconds?: number;
  /** BOOKING_LIMIT_PER_DOCTOR and BOOKING_LIMIT_TOTAL: a patient's upcoming appointments (config.ts's defaults otherwise). */
  bookingLimits?: BookingLimits;
  /** Whether text messages can leave (SMS_URL, or the development console); true unless said (docs/sms.md). */
  smsAvailable?: boolean;
  /** SMS_COUNTRIES: the countries codes may be texted to (api/phone.ts's default, Cameroon, otherwise). */
  smsCountries?: readonly string[];
}
