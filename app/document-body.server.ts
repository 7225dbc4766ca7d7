// A document's HTML, rendered whole (entry.server.tsx), handed to the request handler beside its
// Response: the handler writes it to the socket in one piece, with a Content-Length, instead of
// reading it back through the Response's web stream (request-handler.server.ts).
const bodies = new WeakMap<Response, Buffer>();

/** The Response of a whole document, its body also kept as `html`. */
export function documentResponse(html: Buffer, init: ResponseInit): Response {
  // The body is given as a stream that hands over `html` only if read: a Response copies a buffer it
  // is built with, and the handler writes `html` itself.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(html);
      controller.close();
    },
  });
  const response = new Response(body, init);
  bodies.set(response, html);
  return response;
}

/** The whole body of a document Response made by documentResponse, else undefined (stream it). */
export const documentBody = (response: Response): Buffer | undefined => bodies.get(response);
