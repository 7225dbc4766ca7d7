// The administration channel of the process that owns the embedded database: `npm run admin`
// cannot open the folder while the app runs (api/db/lock.ts), so it sends its command here and the
// owner runs it on its own connection. A Unix socket beside the folder (DATA_DIR/db.sock, mode
// 0600): only who may already read and write the data folder can reach it, and it is never on the
// network, so it needs no token. See docs/decisions/0006-one-owner-for-the-embedded-database.md.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Database } from "../db/index.ts";
import { dumpEmbedded } from "../db/backup.ts";
import type { Mailer } from "../mail/index.ts";
import { ApiError } from "../http.ts";
import { runCommand, UsageError, USAGE } from "./commands.ts";

function controlSocketOf(dataDir: string) {
  return `${path.resolve(dataDir)}.sock`;
}

/** What a forwarded command answers: the CLI prints `out` on stdout, `error` on stderr, exits `code`. */
export interface CommandAnswer {
  code: number;
  out: string[];
  error?: string;
}

async function readBody(req: http.IncomingMessage, limit = 64 * 1024) {
  let text = "";
  for await (const chunk of req) {
    text += chunk;
    if (text.length > limit) throw new UsageError("Command too long");
  }
  return text;
}

/** Serves the channel until the returned function is called (before the database closes). */
export async function serveControl(database: Database, mailer: Mailer, dataDir: string): Promise<() => Promise<void>> {
  const socket = controlSocketOf(dataDir);
  // This process holds the folder's lock: a socket file left here belongs to a dead owner.
  fs.rmSync(socket, { force: true });
  const server = http.createServer(async (req, res) => {
    const answer = (status: number, body: CommandAnswer) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      if (req.method === "GET" && req.url === "/backup" && database.pglite) {
        const dump = Buffer.from(await (await dumpEmbedded(database.pglite)).arrayBuffer());
        res.writeHead(200, { "content-type": "application/gzip", "content-length": dump.length }).end(dump);
        return;
      }
      if (req.method === "POST" && req.url === "/run") {
        const { argv, password } = JSON.parse(await readBody(req)) as { argv: string[]; password?: string };
        const out: string[] = [];
        try {
          await runCommand(database.db, mailer, argv, {
            out: (line) => out.push(line),
            password: async () => password ?? "",
          });
          return answer(200, { code: 0, out });
        } catch (error) {
          if (error instanceof UsageError) return answer(200, { code: 2, out, error: `${error.message}\n\n${USAGE}` });
          if (error instanceof ApiError) return answer(200, { code: 1, out, error: error.message });
          throw error;
        }
      }
      answer(404, { code: 2, out: [], error: "Unknown administration request" });
    } catch (error) {
      console.error(`admin command failed: ${(error as Error).message}`);
      answer(500, { code: 1, out: [], error: "The running app could not do this command; its log says why." });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve());
  });
  fs.chmodSync(socket, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      fs.rmSync(socket, { force: true });
    });
}

/** One request to the owner's channel; undefined when nobody answers there. */
export function askOwner(
  dataDir: string,
  method: "GET" | "POST",
  route: string,
  body?: unknown,
): Promise<{ status: number; body: Buffer } | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: controlSocketOf(dataDir), method, path: route, headers: { "content-type": "application/json" } },
      async (res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of res) chunks.push(chunk as Buffer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      ["ENOENT", "ECONNREFUSED"].includes(error.code ?? "") ? resolve(undefined) : reject(error),
    );
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
