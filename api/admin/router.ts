// /admin (extension, docs/product.md, Where we depart from the original screens): doctor verification. Admins only; everyone else 403.
import { Router } from "express";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import { authenticate, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { pagination } from "../../contract/fields.ts";
import { ADMIN_DOCTOR_PAGE_MAX, ADMIN_DOCTOR_PAGE_SIZE, approveDoctor, findDoctorId, pageDoctorsByVerification, rejectDoctor, VERIFICATIONS } from "./doctors.ts";

const listQuery = z.object({
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(VERIFICATIONS, "Invalid status").default("pending")),
  ...pagination(ADMIN_DOCTOR_PAGE_SIZE, ADMIN_DOCTOR_PAGE_MAX),
});

const approveBody = z.object({
  specialityIds: z
    .array(z.coerce.number("Invalid speciality").int("Invalid speciality").positive("Invalid speciality"), "specialityIds must be a list")
    .max(20, "At most 20 specialities")
    .default([]),
});

const rejectBody = z.object({
  reason: z.preprocess((v) => (v === null ? undefined : v), z.string("Invalid reason").max(500, "The reason must be at most 500 characters").optional()),
});

export function adminRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  router.use(authenticate(db, "admin"));

  router.get("/doctors", async (req, res) => {
    const { status, page, limit } = parse(listQuery, req.query);
    res.json(await pageDoctorsByVerification(db, status, { page, limit }));
  });

  router.post("/doctors/:id/approve", idempotent(db), async (req, res) => {
    const { specialityIds } = parse(approveBody, req.body ?? {});
    res.json(await approveDoctor(db, mailer, await findDoctorId(db, String(req.params.id)), specialityIds));
  });

  router.post("/doctors/:id/reject", idempotent(db), async (req, res) => {
    const { reason } = parse(rejectBody, req.body ?? {});
    res.json(await rejectDoctor(db, mailer, await findDoctorId(db, String(req.params.id)), reason));
  });

  return router;
}
