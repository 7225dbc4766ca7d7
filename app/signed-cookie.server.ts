// The signed cookies of the web tier (the session, the flash toasts), read with node:crypto.
// React Router signs and checks a cookie through WebCrypto: every page imported the key again and
// verified the HMAC through an asynchronous job, about 4% of a signed-in page's CPU (bench/README.md).
// The cookie read here is React Router's own format, so nothing changes for a browser: the value is
// base64 of the JSON (as UTF-8) and, after a dot, the HMAC-SHA256 of that value in base64 without
// padding. Writing a cookie (a login, a toast) is rare and left to React Router.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createCookie, type Cookie, type CookieOptions } from "react-router";

/** React Router's `createCookie` with `secrets`, whose `parse` checks the signature with node:crypto. */
export function createSignedCookie(name: string, options: CookieOptions & { secrets: string[] }): Cookie {
  const written = createCookie(name, options);
  const { secrets } = options;
  return {
    get name() {
      return written.name;
    },
    get isSigned() {
      return written.isSigned;
    },
    get expires() {
      return written.expires;
    },
    serialize: (value, serializeOptions) => written.serialize(value, serializeOptions),
    async parse(cookieHeader) {
      if (!cookieHeader) return null;
      const value = cookieValue(cookieHeader, name);
      if (value === undefined) return null;
      if (value === "") return "";
      for (const secret of secrets) {
        const unsigned = unsign(value, secret);
        if (unsigned !== undefined) return decodeData(unsigned);
      }
      return null;
    },
  };
}

const blanks = /^[ \t]+|[ \t]+$/g;

/**
 * The value of cookie `name` in a Cookie header, as React Router's parser (cookie-es) reads it: the
 * first pair of that name, spaces and tabs around it dropped, percent-decoded when it can be.
 */
export function cookieValue(header: string, name: string): string | undefined {
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).replace(blanks, "") !== name) continue;
    const value = pair.slice(equals + 1).replace(blanks, "");
    if (!value.includes("%")) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** The signed value without its signature, or undefined when the signature is not `secret`'s. */
function unsign(signed: string, secret: string): string | undefined {
  const dot = signed.lastIndexOf(".");
  if (dot === -1) return undefined;
  const value = signed.slice(0, dot);
  const expected = Buffer.from(createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, ""));
  const given = Buffer.from(signed.slice(dot + 1).replace(/=+$/, ""));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** As React Router decodes a cookie's data: an unreadable one is an empty session. */
function decodeData(value: string): unknown {
  try {
    return JSON.parse(utf8.decode(Buffer.from(value, "base64")));
  } catch {
    return {};
  }
}
