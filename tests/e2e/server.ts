// The browser tests' world, started by playwright.config.ts (webServer):
//  - a real SMTP server on 127.0.0.1:2525 (no auth, no TLS) that keeps every message it receives
//    in memory, readable over a tiny HTTP endpoint on 127.0.0.1:2526:
//      GET    /messages?to=EMAIL  -> [{to, subject, text, html, date}], oldest first (newest last)
//      DELETE /messages           -> forget them all
//  - a real SMPP gateway on 127.0.0.1, any free port (api/test/smpp.ts), that keeps every text message it
//    receives, readable on the same endpoint: GET /sms?to=NUMBER -> [{to, text}], oldest first
//  - the production build of the app (`node server.ts`) on 127.0.0.1:3100 with a fresh data folder,
//    sending its mail to that SMTP server and its text messages to that gateway.
// Ports can be moved with E2E_PORT, E2E_SMTP_PORT, E2E_MAIL_PORT and E2E_SMPP_PORT (support.ts reads E2E_MAIL_PORT).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseMail, startSmtpServer, type ReceivedMail } from "../../api/test/smtp.ts";
import { startSmppServer } from "../../api/test/smpp.ts";
import { CODE_RESEND_SECONDS } from "./timing.ts";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2525);
const MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? 2526);
// Any free port unless told: the app is given its address, the tests read it through the endpoint above.
const SMPP_PORT = Number(process.env.E2E_SMPP_PORT ?? 0);

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  date: string;
}
const messages: CapturedMail[] = [];

/** The message as the mailbox endpoint answers it, read by mailparser. */
async function readMessage(mail: ReceivedMail): Promise<CapturedMail> {
  const parsed = await parseMail(mail);
  return {
    to: mail.to,
    subject: parsed.subject ?? "",
    text: (parsed.text ?? "").replace(/\r\n/g, "\n"),
    html: (parsed.html || "").replace(/\r\n/g, "\n"),
    date: new Date().toISOString(),
  };
}

// --- the SMTP server and its mailbox endpoint ---------------------------------------------------

const smtp = await startSmtpServer({
  port: SMTP_PORT,
  async onMessage(mail) {
    try {
      messages.push(await readMessage(mail));
    } catch (error) {
      console.error("[e2e smtp] could not parse a message:", error);
      throw error;
    }
  },
}).catch((error: Error) => {
  console.error(`[e2e smtp] ${error.message}`);
  process.exit(1);
});
smtp.server.on("error", (error) => {
  console.error(`[e2e smtp] ${error.message}`);
  process.exit(1);
});

// --- the SMPP gateway (docs/sms.md) -------------------------------------------------------------

const gateway = await startSmppServer({ port: SMPP_PORT, systemId: "healthbook", password: "e2e-smpp" }).catch(
  (error: Error) => {
    console.error(`[e2e smpp] ${error.message}`);
    process.exit(1);
  },
);

const mailbox = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/sms" && req.method === "GET") {
    const to = url.searchParams.get("to")?.replace(/^\+/, "");
    const list = gateway.received.filter((m) => !to || m.to === to).map(({ to, text }) => ({ to, text }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
  } else if (url.pathname !== "/messages") {
    res.writeHead(404).end();
  } else if (req.method === "DELETE") {
    messages.length = 0;
    res.writeHead(204).end();
  } else if (req.method === "GET") {
    const to = url.searchParams.get("to")?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
  } else {
    res.writeHead(405).end();
  }
});
mailbox.on("error", (error) => {
  console.error(`[e2e mailbox] ${error.message}`);
  process.exit(1);
});
mailbox.listen(MAIL_PORT, "127.0.0.1");

// --- the app -------------------------------------------------------------------------------------

// The data folder: E2E_DATA_DIR (playwright.config.ts names one, so the fixtures' admin CLI can reach
// the app that owns it), emptied first; else a new temporary one.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "e2e-data-"));
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const app = spawn(process.execPath, ["server.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    // One web process: production's default (one per core) would double the suite's memory.
    WEB_CONCURRENCY: "1",
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    SMS_URL: gateway.url(),
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    DEMO: "1",
    SESSION_SECRET: "e2e-test-session-secret-0123456789abcdef",
    COOKIE_SECURE: "false",
    CODE_RESEND_SECONDS: String(CODE_RESEND_SECONDS),
    // Lifted (the most config.ts allows): some specs book dozens of one doctor's slots for one
    // patient (a page of the bell, an absence over 51 appointments). The API tests hold the limits;
    // booking-limits.spec.ts meets the refusal no setting lifts, two appointments at one time.
    BOOKING_LIMIT_PER_DOCTOR: "1000",
    BOOKING_LIMIT_TOTAL: "1000",
    // One line per request would drown the test report (Playwright prints the server's output).
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
  },
  stdio: ["ignore", "inherit", "inherit"],
});

// Stop the app first, and only once it has exited close the rest and remove its data folder.
app.on("exit", (code, signal) => {
  if (code) console.error(`[e2e] the app exited with code ${code}`);
  void smtp.close();
  void gateway.stop();
  mailbox.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal === "SIGTERM" || signal === "SIGINT" ? 0 : 1));
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.on(signal, () => {
    app.kill("SIGTERM");
    setTimeout(() => app.kill("SIGKILL"), 8_000).unref();
  });
}
// If this process dies some other way, do not leave the app running on the port.
process.on("exit", () => {
  if (app.exitCode === null && app.signalCode === null) app.kill("SIGKILL");
});

// Playwright runs this through `sh -c`; when the runner itself is killed (SIGTERM, timeout) it
// does not stop its web server, and the shell in between keeps us alive with the ports taken.
// So watch the parent and the grandparent (Linux /proc) and stop when either is gone.
function parentOf(pid: number | "self"): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}
const watched = [process.ppid, parentOf(process.ppid)].filter((pid): pid is number => !!pid && pid > 1);
setInterval(() => {
  const gone = watched.some((pid) => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
  if (gone || process.ppid === 1) {
    console.error("[e2e] the test runner is gone: stopping the app");
    app.kill("SIGTERM");
    setTimeout(() => app.kill("SIGKILL"), 8_000).unref();
  }
}, 1_000).unref();
