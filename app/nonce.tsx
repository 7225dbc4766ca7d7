// The CSP nonce for scripts rendered by components (the server render only; empty in the browser).
import { createContext, useContext } from "react";

const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
