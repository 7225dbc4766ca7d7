// GET /speciality (docs/product.md, The API): every speciality, General practice first, then by name.
import { Router } from "express";
import { asc, desc } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { specialities } from "../db/schema.ts";
import type { Speciality } from "../../contract/reference.ts";

export function specialityRouter({ db }: ApiDeps) {
  const router = Router();

  router.get("/", async (_req, res) => {
    const rows = await db
      .select({
        id: specialities.id,
        name: specialities.name,
        nameFr: specialities.nameFr,
        icon: specialities.icon,
        isGeneral: specialities.isGeneral,
      })
      .from(specialities)
      .orderBy(desc(specialities.isGeneral), asc(specialities.name));
    // Reference data changes only with a deployment or an admin action: let proxies keep it briefly.
    res.set("Cache-Control", "public, max-age=300");
    res.json(rows satisfies Speciality[]);
  });

  return router;
}
