import { createContext, useContext } from "react";

// The CSP nonce reaches the document from the server; in the browser it reads as empty, as browsers hide it.
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
