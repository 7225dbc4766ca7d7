// The web app as an Express sub-app; the server build's entry (see vite.config.ts). server.ts, the
// composition root, builds the way to the API and hands it in (createWebApp): every request gets
// it in its load context (servicesContext), so no module of the web app imports the API's.
// Requests reach React Router through this adapter rather than @react-router/express's, because
// that one hands routes the raw socket stream: a form body had no size limit and a malformed one
// became a 500. Here a body is read once, within its limit, and checked before any route runs;
// what the edge refuses reaches the routes with no body and its status in the context, so the
// error page is rendered in the user's language (docs/errors.md).
import type { IncomingMessage } from "node:http";
import { writeReadableStreamToWritable } from "@react-router/node";
import express from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";
import { closeAfterAnswer } from "../http/lingering-close.ts";
import { config } from "../config.ts";
import type { WebServices } from "../contract/api-transport.ts";
import { nonceContext, refusedRequestContext, servicesContext, type RefusedRequest } from "./context.ts";
import { detectLanguage } from "./i18n.server.ts";
import { documentBody } from "./document-body.server.ts";
import { requestInfoContext } from "./upstream.server.ts";

/** The largest form the web app reads (64 kB): every form of this product is far smaller. */
export const FORM_LIMIT_BYTES = 64 * 1024;

// The build itself, not a function returning it: given a function, React Router derives its route
// table and static handler again on every request (about 2% of a page's CPU, bench/README.md);
// in development Vite loads this module again when a route changes, so nothing goes stale.
const handleRequest = createRequestHandler(serverBuild, config().declaredNodeEnv);

/** The web app, calling the API through `services` (contract/api-transport.ts). */
export function createWebApp(services: WebServices) {
  const webApp = express();
  webApp.disable("x-powered-by");
  webApp.use(async (req, res, next) => {
    try {
      const form = await readForm(req);
      // The request's log line (api/logging.ts) says the status: nothing more is logged for a refusal.
      if (form.refused) await unreadBodyDealtWith(req, res, form.partlyRead);
      const request = toFetchRequest(req, res, form.body);
      if (!request) {
        res.status(400).type("text/plain").send("Bad request");
        return;
      }
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      context.set(nonceContext, String(res.locals.nonce ?? ""));
      context.set(requestInfoContext, { ip: req.ip ?? "", requestId: String(req.id ?? "") });
      context.set(refusedRequestContext, form.refused ?? null);
      await detectLanguage(request, context);
      await send(res, await handleRequest(request, context));
    } catch (error) {
      next(error);
    }
  });
  return webApp;
}

const FORM_TYPE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/** The body of a form post, read within FORM_LIMIT_BYTES, or why it was refused. */
async function readForm(
  req: IncomingMessage,
): Promise<{ body?: Buffer; refused?: RefusedRequest; partlyRead?: boolean }> {
  if (req.method === "GET" || req.method === "HEAD") return {};
  const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
  if (req.headers["transfer-encoding"] === undefined && !declared) return {};
  const encoding = req.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding && encoding !== "identity") return { refused: { status: 415 } };
  if (declared !== undefined && !(declared <= FORM_LIMIT_BYTES)) return { refused: { status: 413 } };
  const type = req.headers["content-type"] ?? "";
  const multipart = /^\s*multipart\//i.test(type);
  if (!FORM_TYPE.test(type) || (multipart && !/;\s*boundary=/i.test(type))) {
    return { refused: { status: 415 } };
  }
  const body = await readLimited(req, FORM_LIMIT_BYTES);
  if (!body) return { refused: { status: 413 }, partlyRead: true };
  let fields: Iterable<[string, FormDataEntryValue]>;
  try {
    fields = multipart
      ? await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData()
      : new URLSearchParams(body.toString("utf8"));
  } catch {
    return { refused: { status: 400 } };
  }
  // PostgreSQL refuses NUL in text; no form of this product has a use for it.
  for (const [name, value] of fields) {
    if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) return { refused: { status: 400 } };
  }
  return { body };
}

/**
 * The unread rest of a refused body: up to 1 MB announced is read and thrown away, so that a client
 * still sending it reliably reads the answer; anything larger, or of unknown size, is not read at
 * all and the connection closes after the answer, without losing it (closeAfterAnswer). Memory
 * stays flat either way.
 */
function unreadBodyDealtWith(req: IncomingMessage, res: express.Response, partlyRead = false): Promise<void> {
  if (req.complete) return Promise.resolve();
  if (partlyRead || !(Number(req.headers["content-length"]) <= 1024 * 1024)) {
    closeAfterAnswer(res);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    req.once("end", resolve);
    req.once("error", () => resolve());
    req.resume();
  });
}

/** The whole body if it stays within `limit` bytes; undefined (and reading stops) once it does not. */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** The Fetch request React Router wants, or undefined when the URL or a header cannot make one. */
function toFetchRequest(req: express.Request, res: express.Response, body: Buffer | undefined): Request | undefined {
  // A Host header is the client's to write: keep only a plausible host name and port.
  const host = (req.get("host") ?? "").match(/^[a-z0-9.-]+(:\d{1,5})?$/i)?.[0] ?? "localhost";
  const protocol = req.protocol === "https" ? "https" : "http";
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const headers = headersOf(req);
  // A submission without a body is an empty form, so that an action reading it never fails.
  if (hasBody && !body?.length) headers.set("content-type", "application/x-www-form-urlencoded");
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    // A stray `%` (as in `/%ZZ`) is a literal percent sign: the page is then simply not found,
    // instead of a URL React Router cannot decode.
    const target = req.originalUrl.replace(/%(?![0-9a-f]{2})/gi, "%25");
    return new Request(`${protocol}://${host}${target}`, {
      method: req.method,
      headers,
      body: hasBody ? new Uint8Array(body ?? []) : undefined,
      signal: controller.signal,
    });
  } catch {
    return undefined;
  }
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "content-length" || name === "transfer-encoding") continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

async function send(res: express.Response, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  // A document rendered whole (entry.server.tsx) goes out in one write, with its length.
  const html = documentBody(response);
  if (html) {
    // (compression drops the length when it compresses)
    res.setHeader("Content-Length", html.length);
    res.end(html);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}
