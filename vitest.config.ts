import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["api/**/*.test.ts", "app/**/*.test.ts", "contract/**/*.test.ts", "deploy/**/*.test.ts", "tools/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // Migrates one database for the run; each test file gets a copy (api/test/database-template.ts).
    globalSetup: ["api/test/database-template.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
