// What the benchmarks that drive the production server share: a free port, waiting for it to
// answer, and a demo account's session through the real login form.
import { createServer } from "node:net";

/** A free TCP port on the loopback interface, chosen by the system. */
export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Logs a demo account in through the real login form and returns its session cookie. */
export async function login(base: string, email: string, role: "patient" | "doctor") {
  const body = new URLSearchParams({ email, password: "Demo1234!", role });
  const res = await fetch(`${base}/login`, { method: "POST", body, redirect: "manual", headers: { origin: base } });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("__session="));
  if (!cookie.length) throw new Error(`login as ${email} failed: ${res.status}`);
  return cookie.join("; ");
}
