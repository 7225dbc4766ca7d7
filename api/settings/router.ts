// /settings: the signed-in user's own choices that the API acts on (docs/mail.md): the language of
// their mail, and whether they receive appointment notices and reminders by mail.
import { Router } from "express";
import { eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { users } from "../db/schema.ts";
import { authenticate, currentUser, parse } from "../http.ts";
import { settingsBody, type MailSettings } from "../../contract/settings.ts";

async function readSettings(db: Db, userId: string): Promise<MailSettings> {
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
    const body = parse(settingsBody, req.body);
    const id = currentUser(req).id;
    await db
      .update(users)
      .set({ locale: body.language, mailNotifications: body.notifications, mailReminders: body.reminders, updatedAt: new Date() })
      .where(eq(users.id, id));
    res.json(await readSettings(db, id));
  });

  return router;
}
