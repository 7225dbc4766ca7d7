// GET /location/country and GET /location/city/{countryId} (docs/product.md, The API).
import { Router } from "express";
import { asc, eq, sql } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { cities, countries } from "../db/schema.ts";
import { notFound, parse } from "../http.ts";
import { cityListParams, type Country, type Place } from "../../contract/reference.ts";

// The product serves Cameroon first (docs/architecture.md); the others follow by name.
const HOME_COUNTRY = "CM";

export function locationRouter({ db }: ApiDeps) {
  const router = Router();

  router.get("/country", async (_req, res) => {
    const rows = await db
      .select({ id: countries.id, name: countries.name, code: countries.code })
      .from(countries)
      .orderBy(sql`${countries.code} = ${HOME_COUNTRY} desc`, asc(countries.name));
    res.set("Cache-Control", "public, max-age=300");
    res.json(rows satisfies Country[]);
  });

  router.get("/city/:countryId", async (req, res) => {
    const { countryId } = parse(cityListParams, req.params);
    const [country] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, countryId));
    if (!country) throw notFound("Country not found");
    const rows = await db
      .select({ id: cities.id, name: cities.name })
      .from(cities)
      .where(eq(cities.countryId, countryId))
      .orderBy(asc(cities.name));
    res.set("Cache-Control", "public, max-age=300");
    res.json(rows satisfies Place[]);
  });

  return router;
}
