// The scale-out suite alone (tests/run-all.sh runs it after the build, on PostgreSQL).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/scale-out/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
