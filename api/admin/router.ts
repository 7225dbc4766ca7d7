// /admin (extension, docs/product.md, Where we depart from the original screens): doctor verification
// (the clinic's closed days: closures.ts). Admins only; everyone else 403.
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { adminDoctorListQuery, approveBody, rejectBody } from "../../contract/admin.ts";
import { approveDoctor, findDoctorId, pageDoctorsByVerification, rejectDoctor } from "./doctors.ts";

export function adminRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  router.use(authenticate(db, "admin"));

  router.get("/doctors", async (req, res) => {
    const { status, q, page, limit } = parse(adminDoctorListQuery, req.query);
    res.json(await pageDoctorsByVerification(db, status, { page, limit }, q));
  });

  router.post("/doctors/:id/approve", idempotent(db), async (req, res) => {
    const { specialityIds } = parse(approveBody, req.body);
    res.json(await approveDoctor(db, mailer, await findDoctorId(db, String(req.params.id)), specialityIds));
  });

  router.post("/doctors/:id/reject", idempotent(db), async (req, res) => {
    const { reason } = parse(rejectBody, req.body);
    res.json(await rejectDoctor(db, mailer, await findDoctorId(db, String(req.params.id)), reason));
  });

  return router;
}
