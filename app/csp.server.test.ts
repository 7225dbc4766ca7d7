// The policy built once answers the header helmet built per request from the same directives, with
// a fresh nonce each time.
import { describe, expect, it } from "vitest";
import helmet from "helmet";
import type { Request, Response } from "express";
import { contentSecurityPolicy, cspDirectives, headersOnce, newNonce } from "./csp.server.ts";

function headerOf(middleware: (req: Request, res: Response, next: () => void) => void) {
  const headers: Record<string, string> = {};
  const res = {
    locals: {} as Record<string, unknown>,
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
  };
  middleware({} as Request, res as unknown as Response, () => {});
  return { header: headers["content-security-policy"], nonce: String(res.locals.nonce) };
}

describe("the Content-Security-Policy", () => {
  for (const upgradeInsecureRequests of [true, false]) {
    it(`is helmet's header with the request's nonce (upgrade-insecure-requests: ${upgradeInsecureRequests})`, () => {
      const ours = headerOf(contentSecurityPolicy({ upgradeInsecureRequests }));
      const helmets = headerOf(
        helmet.contentSecurityPolicy({
          useDefaults: false,
          directives: cspDirectives({ upgradeInsecureRequests }, ours.nonce),
        }),
      );
      expect(ours.header).toBe(helmets.header);
      expect(ours.header).toContain(`script-src 'nonce-${ours.nonce}' 'strict-dynamic'`);
      expect(ours.header.includes("upgrade-insecure-requests")).toBe(upgradeInsecureRequests);
    });
  }

  it("gives every request its own nonce of 16 random bytes", () => {
    const middleware = contentSecurityPolicy({ upgradeInsecureRequests: false });
    const nonces = new Set<string>();
    // More than a pool of random bytes holds, so that refilling it is crossed too.
    for (let i = 0; i < 1000; i++) {
      const { header, nonce } = headerOf(middleware);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(header).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(1000);
    expect(newNonce()).not.toBe(newNonce());
  });
});

describe("headersOnce", () => {
  /** Every header a middleware leaves on a response, as names in lower case. */
  function headersAfter(middleware: (req: Request, res: Response, next: () => void) => void) {
    const headers = new Map<string, string>([["x-powered-by", "Express"]]);
    const res = {
      setHeader: (name: string, value: string) => void headers.set(name.toLowerCase(), String(value)),
      removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
    };
    let nexts = 0;
    middleware({} as Request, res as unknown as Response, () => void nexts++);
    expect(nexts).toBe(1);
    return Object.fromEntries(headers);
  }

  for (const strictTransportSecurity of [false, { maxAge: 31536000, includeSubDomains: true }] as const) {
    it(`sets what helmet sets, request after request (HSTS ${strictTransportSecurity ? "on" : "off"})`, () => {
      const options = {
        contentSecurityPolicy: false,
        referrerPolicy: { policy: "strict-origin-when-cross-origin" },
        strictTransportSecurity,
        crossOriginEmbedderPolicy: false,
      } as const;
      const once = headersOnce(helmet(options));
      const expected = headersAfter(helmet(options));
      expect(Object.keys(expected).length).toBeGreaterThan(8);
      expect(expected["x-powered-by"]).toBeUndefined();
      expect(expected["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect("strict-transport-security" in expected).toBe(Boolean(strictTransportSecurity));
      for (let i = 0; i < 3; i++) expect(headersAfter(once)).toEqual(expected);
    });
  }
});
