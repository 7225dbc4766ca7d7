// The wire of /settings (docs/mail.md): the signed-in user's choices the API acts on, the language
// of their mail and whether they receive appointment notices and reminders by mail.
import { z } from "zod";
import { LANGUAGES } from "./constants.ts";
import { email } from "./auth.ts";

/** PUT /settings: the choices given change, the others stay; an unknown one, or none, is refused. */
export const settingsBody = z
  .strictObject(
    {
      language: z.enum(LANGUAGES, "Language must be en or fr").optional(),
      notifications: z.boolean("Notifications must be true or false").optional(),
      reminders: z.boolean("Reminders must be true or false").optional(),
      // Notices and reminders by text message too (docs/sms.md): only once the phone is verified.
      sms: z.boolean("SMS must be true or false").optional(),
    },
    "Unknown setting",
  )
  .refine((body) => Object.keys(body).length > 0, "Nothing to change");
export type SettingsChange = z.input<typeof settingsBody>;

/** GET /settings, and the answer of PUT /settings. */
export const mailSettings = z.object({
  language: z.enum(LANGUAGES),
  notifications: z.boolean(),
  reminders: z.boolean(),
  // Text messages (docs/sms.md): the profile's phone (E.164) or null, whether an SMS code proved it,
  // whether notices and reminders also go by SMS, and whether this server sends SMS at all.
  phone: z.string().nullable(),
  phoneVerified: z.boolean(),
  sms: z.boolean(),
  smsAvailable: z.boolean(),
  // The account's e-mail, or null for a patient who signs in with their phone (docs/sms.md): they
  // may add one, proved by a code mailed to it.
  email: z.string().nullable(),
});
export type MailSettings = z.infer<typeof mailSettings>;

/** POST /settings/email/code: a code to the address a phone-only patient adds. */
export const emailToAdd = z.object({ email });
/** POST /settings/email/verify: the address again, and the code mailed to it. */
export const emailCode = z.object({
  email,
  otpCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Please enter the complete 6-digit code"),
});
