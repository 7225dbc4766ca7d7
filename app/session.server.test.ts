// The session cookie's secrets (README, Configuration): SESSION_SECRET is a comma-separated list so
// that it can be rotated (the first signs new cookies, every one still verifies the cookies signed
// before), and importing the web app's modules writes nothing to disk.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { keepDevelopmentSessionSecret, readConfig, resetConfigForTests } from "../config.ts";

const OLD = "o".repeat(40);
const NEW = "n".repeat(40);
const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  resetConfigForTests();
  vi.resetModules();
});

/** session.server.ts as a process started with `env` loads it. */
async function sessionModule(env: Record<string, string | undefined>) {
  process.env = { ...saved, ...env };
  resetConfigForTests();
  vi.resetModules();
  return import("./session.server.ts");
}

async function cookieOf(storage: Awaited<ReturnType<typeof sessionModule>>["sessionStorage"]) {
  const session = await storage.getSession();
  session.set("token", "a-token");
  session.set("user", { id: "u1", role: "patient", username: "Someone", avatarUrl: null });
  return (await storage.commitSession(session)).split(";")[0];
}

const signedIn = async (module: Awaited<ReturnType<typeof sessionModule>>, cookie: string) =>
  (await module.readSession(new Request("http://127.0.0.1/", { headers: { cookie } }))).user?.id;

describe("SESSION_SECRET", () => {
  it("is read as a list, each secret 32 characters or more", () => {
    expect(readConfig({ SESSION_SECRET: NEW }).SESSION_SECRET).toEqual([NEW]);
    expect(readConfig({ SESSION_SECRET: ` ${NEW} , ${OLD}` }).SESSION_SECRET).toEqual([NEW, OLD]);
    for (const bad of [`${NEW},short`, `${NEW},`, "short"]) {
      expect(() => readConfig({ SESSION_SECRET: bad })).toThrow(
        /^Configuration error: SESSION_SECRET must be one or more secrets of at least 32 characters/,
      );
    }
    // A secret never appears in the message.
    expect(() => readConfig({ SESSION_SECRET: `${NEW},short` })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(NEW) }),
    );
  });

  it("rotates: the first secret signs, the others still verify, and a secret dropped from the list no longer does", async () => {
    const before = await sessionModule({ SESSION_SECRET: OLD, NODE_ENV: "development" });
    const oldCookie = await cookieOf(before.sessionStorage);

    const rotated = await sessionModule({ SESSION_SECRET: `${NEW},${OLD}`, NODE_ENV: "development" });
    expect(await signedIn(rotated, oldCookie)).toBe("u1");
    const newCookie = await cookieOf(rotated.sessionStorage);

    const after = await sessionModule({ SESSION_SECRET: NEW, NODE_ENV: "development" });
    expect(await signedIn(after, newCookie)).toBe("u1");
    expect(await signedIn(after, oldCookie)).toBeUndefined();
  });

  it("in development without it: importing the web app's modules writes nothing; the server's start keeps one in DATA_DIR", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "session-secret-"));
    try {
      const env = { SESSION_SECRET: undefined, NODE_ENV: "development", DATA_DIR: dataDir };
      await sessionModule(env);
      await import("./toast.server.ts");
      await import("./pending-verification.server.ts");
      expect(fs.readdirSync(dataDir)).toEqual([]);

      keepDevelopmentSessionSecret();
      const file = path.join(dataDir, "session-secret");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const first = await sessionModule(env);
      const cookie = await cookieOf(first.sessionStorage);
      // A restart reads the same secret: the session holds.
      expect(await signedIn(await sessionModule(env), cookie)).toBe("u1");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
