// /settings: the signed-in user's own choices that the API acts on (docs/mail.md): the language of
// their mail, and whether they receive appointment notices and reminders by mail.
import { Router } from "express";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { users } from "../db/schema.ts";
import { authenticate, badRequest, currentUser, parse } from "../http.ts";

const settingsBody = z.strictObject(
  {
    language: z.enum(["en", "fr"], "Language must be en or fr").optional(),
    notifications: z.boolean("Notifications must be true or false").optional(),
    reminders: z.boolean("Reminders must be true or false").optional(),
  },
  "Unknown setting",
);

async function readSettings(db: Db, userId: string) {
  const [row] = await db
    .select({ language: users.locale, notifications: users.mailNotifications, reminders: users.mailReminders })
    .from(users)
    .where(eq(users.id, userId));
  return { language: row.language === "fr" ? "fr" : "en", notifications: row.notifications, reminders: row.reminders };
}

export function settingsRouter({ db }: ApiDeps) {
  const router = Router();
  const signedIn = authenticate(db);

  router.get("/", signedIn, async (req, res) => {
    res.json(await readSettings(db, currentUser(req).id));
  });

  router.put("/", signedIn, async (req, res) => {
    const body = parse(settingsBody, req.body ?? {});
    if (Object.keys(body).length === 0) throw badRequest("Nothing to change", "invalid");
    const id = currentUser(req).id;
    await db
      .update(users)
      .set({ locale: body.language, mailNotifications: body.notifications, mailReminders: body.reminders, updatedAt: new Date() })
      .where(eq(users.id, id));
    res.json(await readSettings(db, id));
  });

  return router;
}
