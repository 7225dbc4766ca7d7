import { Writable } from "node:stream";

import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { nonceContext } from "./context.ts";
import { NonceProvider } from "./nonce.tsx";
import { PageTextsContext, type PageTexts } from "./i18n.ts";
import { pageTexts } from "./i18n.server.ts";
import { pageTextsBlock } from "./page-texts.ts";
import { usedTexts } from "./translate.ts";
import { LiteProvider } from "./lite.tsx";
import { isLiteRequest } from "./lite.server.ts";
import { documentResponse } from "./document-body.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Every inline script React Router writes carries the request's CSP nonce.
    const nonce = loadContext.get(nonceContext);
    // Lite mode: no hydration data either (the root layout leaves out the scripts). The stream of
    // loader data is cancelled rather than left for nobody to read.
    const lite = isLiteRequest(request);
    responseHeaders.append("Vary", "Save-Data");
    if (lite && routerContext.serverHandoffStream) {
      void routerContext.serverHandoffStream.cancel().catch(() => {});
      routerContext.serverHandoffStream = undefined;
    }

    // Abort the rendering after the `streamTimeout` so it has time to flush down the rejected
    // boundaries (no loader of this app defers data: it does not happen today).
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // The render records the texts it looks up; the page carries those, and only those, to the
    // browser (page-texts.ts). Lite mode sends no script, so no texts for one either.
    const texts = pageTexts(loadContext);
    const used = lite ? null : usedTexts();
    const recording: PageTexts = used ? { ...texts, record: used.record } : texts;
    const usedBlock =
      used && (() => pageTextsBlock({ language: texts.language, resources: { [texts.language]: used.texts } }));

    // The whole document is rendered before it is sent, for every client (React Router's template
    // streams the shell to browsers and waits for bots): no page of this app suspends (no deferred
    // data), so streaming sent nothing sooner, and it cost a pass of every chunk through a Node
    // stream, a web stream and back (about 5% of a page's CPU, bench/README.md). The page arrives
    // with a Content-Length, in one write.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <LiteProvider value={lite}>
          <PageTextsContext.Provider value={recording}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </PageTextsContext.Provider>
        </LiteProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          responseHeaders.set("Content-Type", "text/html");
          pipe(
            wholeDocument(usedBlock, (html) => {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              resolve(documentResponse(html, { headers: responseHeaders, status: responseStatusCode }));
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log rendering errors from inside the shell. Don't log errors encountered during the
          // initial shell rendering since they'll reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            console.error(error);
          }
        },
      },
    );
  });
}

const documentEnd = Buffer.from("</body></html>");

/**
 * Collects the document React writes and gives it whole, with `block()` at its end inside <body>:
 * the block is made once React has rendered everything (the texts the render used are known only
 * then). React writes the document's closing tags last.
 */
function wholeDocument(block: (() => string) | null, done: (html: Buffer) => void) {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
    final(callback) {
      // One copy of the document: the block goes in before the closing tags, which React writes in
      // its last chunk (else, after the document, which a browser reads the same).
      const last = chunks.at(-1);
      if (block && last?.subarray(-documentEnd.length).equals(documentEnd)) {
        chunks[chunks.length - 1] = last.subarray(0, last.length - documentEnd.length);
        chunks.push(Buffer.from(block()), documentEnd);
      } else if (block) chunks.push(Buffer.from(block()));
      done(Buffer.concat(chunks));
      callback();
    },
  });
}

/**
 * A client's mistake (an unknown URL, a method a route does not take) is not an incident: the
 * request's own log line says its status, and no stack trace is written. A request the client
 * abandoned is not logged either; our own faults are.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
};
