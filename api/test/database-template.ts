// vitest globalSetup: migrates ONE database for the whole run and seeds its reference data; every
// test file's database is then a copy of it (api/test/scratch-database.ts), which costs a fraction
// of running the migrations again in each file.
//  - PGlite (no TEST_DATABASE_URL): the migrated in-memory database's data folder, dumped as a
//    tarball into a temporary file that each test file loads.
//  - PostgreSQL (TEST_DATABASE_URL): a database `template_…` on that server, which each test file
//    copies with CREATE DATABASE … TEMPLATE; dropped at the end of the run.
// Test files reach the template with `inject("databaseTemplate")` (api/test/harness.ts).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/index.ts";
import { seedReferenceData } from "../db/reference.ts";
import { databaseUrl, onServer, type DatabaseTemplate } from "./scratch-database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `template_${randomUUID().replace(/-/g, "")}`;
    await onServer(serverUrl, `create database ${name}`);
    const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl, name), poolSize: 1 });
    try {
      await seedReferenceData(database.db);
    } finally {
      // CREATE DATABASE … TEMPLATE refuses a template anyone is connected to.
      await database.close();
    }
    project.provide("databaseTemplate", { kind: "postgres", database: name });
    return () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
  }
  const folder = mkdtempSync(path.join(os.tmpdir(), "vitest-template-"));
  const database = await openDatabase({ dataDir: "memory://" });
  try {
    await seedReferenceData(database.db);
    const tarball = path.join(folder, "database.tar");
    writeFileSync(tarball, Buffer.from(await (await database.pglite!.dumpDataDir("none")).arrayBuffer()));
    project.provide("databaseTemplate", { kind: "pglite", tarball });
  } finally {
    await database.close();
  }
  return () => rmSync(folder, { recursive: true, force: true });
}
