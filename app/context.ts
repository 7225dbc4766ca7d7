// Values server.ts hands to every request through React Router's context.
import { createContext } from "react-router";

/** The per-request CSP nonce, for every inline script React Router renders. */
export const nonceContext = createContext<string>("");
