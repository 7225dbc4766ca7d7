// Configuration from the environment, validated once at start: a bad value stops the process
// with a clear message instead of failing later on a request.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  API_URL: z.url().optional(),
  API_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  APP_TIMEZONE: z.string().default("Africa/Douala"),
  DEMO: z.enum(["0", "1"]).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
});

export type Config = z.output<typeof schema> & { sessionSecret: string; apiUrl: string; cookieSecure: boolean; demo: boolean };

let cached: Config | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (cached) return cached;
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const result = schema.safeParse(clean);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = result.data;
  try {
    new Intl.DateTimeFormat("en", { timeZone: c.APP_TIMEZONE });
  } catch {
    throw new Error(`Invalid configuration:\n  APP_TIMEZONE: unknown time zone ${c.APP_TIMEZONE}`);
  }
  const production = c.NODE_ENV === "production";
  let sessionSecret = c.SESSION_SECRET;
  if (!sessionSecret) {
    if (production) throw new Error("Invalid configuration:\n  SESSION_SECRET: required in production (32+ characters)");
    // Development: a random secret kept in the data folder so sessions survive restarts.
    const file = path.join(c.DATA_DIR, "session-secret");
    if (fs.existsSync(file)) sessionSecret = fs.readFileSync(file, "utf8").trim();
    else {
      sessionSecret = randomBytes(32).toString("hex");
      fs.mkdirSync(c.DATA_DIR, { recursive: true });
      fs.writeFileSync(file, sessionSecret, { mode: 0o600 });
    }
  }
  cached = {
    ...c,
    sessionSecret,
    apiUrl: (c.API_URL ?? `http://127.0.0.1:${c.PORT}/api`).replace(/\/$/, ""),
    cookieSecure: c.COOKIE_SECURE ? c.COOKIE_SECURE === "true" : production,
    demo: c.DEMO ? c.DEMO === "1" : !production,
  };
  return cached;
}
