import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "api/**/*.test.ts",
      "app/**/*.test.ts",
      "contract/**/*.test.ts",
      "deploy/**/*.test.ts",
      "tools/**/*.test.ts",
      "tests/integration/**/*.test.ts",
    ],
    environment: "node",
    pool: "forks",
    // One test file per core. vitest's default leaves a core to itself (cores - 1): on the 2 cores of
    // CI that is one file at a time, and the tests (PGlite included) run in that one process, so the
    // second core only ran what a file spawned. Every file has its own database copy and free
    // ports, so files never meet.
    maxWorkers: Math.max(2, availableParallelism()),
    // Migrates one database for the run; each test file gets a copy (api/test/database-template.ts).
    globalSetup: ["api/test/database-template.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
