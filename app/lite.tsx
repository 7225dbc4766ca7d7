// Lite mode (docs/architecture.md, Budgets): the page goes out as HTML and CSS alone, with no
// script, no modulepreload and no hydration data. The server render provides `true`; a page that
// hydrates was by definition not sent in lite mode, so the browser's default is `false`.
import { createContext, useContext } from "react";

const LiteContext = createContext(false);
export const LiteProvider = LiteContext.Provider;
export const useLite = () => useContext(LiteContext);
