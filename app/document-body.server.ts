// A document's HTML, rendered whole (entry.server.tsx), handed to the request handler beside its
// Response: the handler writes it to the socket in one piece, with a Content-Length, instead of
// reading it back through the Response's web stream (request-handler.server.ts).
const bodies = new WeakMap<Response, Buffer>();

/** The Response of a whole document, its body also kept as `html`. */
export function documentResponse(html: Buffer, init: ResponseInit): Response {
  // Buffer.concat's buffers are never shared ones.
  const response = new Response(html as Uint8Array<ArrayBuffer>, init);
  bodies.set(response, html);
  return response;
}

/** The whole body of a document Response made by documentResponse, else undefined (stream it). */
export const documentBody = (response: Response): Buffer | undefined => bodies.get(response);
