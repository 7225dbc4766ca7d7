// /consultation (extension, docs/product.md, Where we depart from the original screens): the doctor's consultation records. Doctors list,
// write and edit their own; a patient lists and reads the records about them.
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { createConsultation, getConsultation, listConsultations, updateConsultation } from "./data.ts";

export function consultationRouter({ db }: ApiDeps) {
  const router = Router();
  const readers = authenticate(db, "doctor", "patient");
  const doctorOnly = authenticate(db, "doctor");

  router.get("/", readers, async (req, res) => {
    res.json(await listConsultations(db, currentUser(req), req.query));
  });

  router.post("/", doctorOnly, idempotent(db), async (req, res) => {
    res.status(201).json(await createConsultation(db, currentUser(req).id, req.body));
  });

  router.get("/:id", readers, async (req, res) => {
    res.json(await getConsultation(db, currentUser(req), String(req.params.id)));
  });

  router.put("/:id", doctorOnly, idempotent(db), async (req, res) => {
    res.json(await updateConsultation(db, currentUser(req).id, String(req.params.id), req.body));
  });

  return router;
}
