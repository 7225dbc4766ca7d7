import { PassThrough, Transform } from "node:stream";

import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { nonceContext } from "./context.ts";
import { NonceProvider } from "./nonce.tsx";
import { PageTextsContext, type PageTexts } from "./i18n.ts";
import { pageTexts } from "./i18n.server.ts";
import { pageTextsBlock } from "./page-texts.ts";
import { usedTexts } from "./translate.ts";
import { LiteProvider } from "./lite.tsx";
import { isLiteRequest } from "./lite.server.ts";

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
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode
        ? "onAllReady"
        : "onShellReady";
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

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    // The render records the texts it looks up; the page carries those, and only those, to the
    // browser (page-texts.ts). Lite mode sends no script, so no texts for one either.
    const texts = pageTexts(loadContext);
    const used = lite ? null : usedTexts();
    const recording: PageTexts = used ? { ...texts, record: used.record } : texts;
    const usedBlock = used && (() => pageTextsBlock({ language: texts.language, resources: { [texts.language]: used.texts } }));

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
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set("Content-Type", "text/html");

          if (usedBlock) {
            const withTexts = endingWith(usedBlock);
            withTexts.pipe(body);
            pipe(withTexts);
          } else pipe(body);

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            console.error(error);
          }
        },
      },
    );
  });
}

const documentEnd = "</body></html>";

/**
 * Passes the document through and writes `block()` at its end, inside <body>: the block is made
 * once React has rendered everything (the texts the render used are known only then). React writes
 * the document's closing tags last, after every streamed part.
 */
function endingWith(block: () => string) {
  let heldEnd = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (heldEnd) {
        this.push(documentEnd);
        heldEnd = false;
      }
      if (chunk.subarray(-documentEnd.length).toString("latin1") === documentEnd) {
        heldEnd = true;
        callback(null, chunk.subarray(0, chunk.length - documentEnd.length));
      } else callback(null, chunk);
    },
    flush(callback) {
      callback(null, block() + (heldEnd ? documentEnd : ""));
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
