// Values server.ts hands to every request through React Router's context.
import { createContext } from "react-router";
import type { WebServices } from "../contract/api-transport.ts";

/**
 * The way to the API and the hooks around it, built by server.ts (the composition root) and given
 * to every request (request-handler.server.ts): the web app never imports the API's modules.
 */
export const servicesContext = createContext<WebServices>();

/** The per-request CSP nonce, for every inline script React Router renders. */
export const nonceContext = createContext<string>("");

/** What the HTTP edge refused in a request (an oversized, compressed or malformed body). */
export interface RefusedRequest {
  status: 400 | 413 | 415;
}

/** The refusal, for the root middleware to answer with the error page; null when the request passed (docs/errors.md). */
export const refusedRequestContext = createContext<RefusedRequest | null>(null);

/** The page a signed-in request is for (never a `.data` URL), set by requireUser. */
export const pageContext = createContext<string | null>(null);
