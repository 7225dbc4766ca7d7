// The wire of /settings (docs/mail.md): the signed-in user's choices the API acts on, the language
// of their mail and whether they receive appointment notices and reminders by mail.
import { z } from "zod";
import { LANGUAGES } from "./constants.ts";

/** PUT /settings: the choices given change, the others stay; an unknown one, or none, is refused. */
export const settingsBody = z
  .strictObject(
    {
      language: z.enum(LANGUAGES, "Language must be en or fr").optional(),
      notifications: z.boolean("Notifications must be true or false").optional(),
      reminders: z.boolean("Reminders must be true or false").optional(),
    },
    "Unknown setting",
  )
  .refine((body) => Object.keys(body).length > 0, "Nothing to change");
export type SettingsChange = z.input<typeof settingsBody>;

/** GET /settings, and the answer of PUT /settings. */
export const mailSettings = z.object({ language: z.enum(LANGUAGES), notifications: z.boolean(), reminders: z.boolean() });
export type MailSettings = z.infer<typeof mailSettings>;
