// /notification (extension, docs/product.md, The bell): a patient's or a doctor's own list of what
// needs their attention. Reading a page marks its entries seen; POST /seen marks them all.
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { markAllSeen, viewNotifications } from "./data.ts";

export function notificationRouter({ db }: ApiDeps) {
  const router = Router();
  const readers = authenticate(db, "patient", "doctor");

  router.get("/", readers, async (req, res) => {
    res.json(await viewNotifications(db, currentUser(req).id, req.query));
  });

  router.post("/seen", readers, idempotent(db), async (req, res) => {
    res.json(await markAllSeen(db, currentUser(req).id));
  });

  return router;
}
