// The signed cookie read with node:crypto answers exactly what React Router's own cookie answers,
// for cookies React Router wrote and for forged, altered or malformed ones.
import { describe, expect, it } from "vitest";
import { createCookie } from "react-router";
import { cookieValue, createSignedCookie } from "./signed-cookie.server.ts";

const options = { path: "/", httpOnly: true, sameSite: "lax" as const, secrets: ["s".repeat(40)] };
const ours = createSignedCookie("__session", options);
const reactRouters = createCookie("__session", options);
const signedWith = (secret: string) => createCookie("__session", { ...options, secrets: [secret] });
const pair = (setCookie: string) => setCookie.split(";")[0];

describe("a signed cookie read with node:crypto", () => {
  it("reads what React Router wrote, with non-ASCII text and among other cookies", async () => {
    const value = { token: "abc.def", user: { id: "u1", role: "patient", username: "Zoé Ngo Mbà 医生" } };
    const written = pair(await reactRouters.serialize(value));
    for (const header of [written, `cookie_check=1; ${written}; i18nextLng=fr`, `a=b;${written}`, ` ${written} `]) {
      expect(await ours.parse(header)).toEqual(value);
      expect(await ours.parse(header)).toEqual(await reactRouters.parse(header));
    }
  });

  it("refuses a signature of another secret, an altered value or signature, and a missing one, as React Router does", async () => {
    const value = { token: "t", user: { id: "u1", role: "admin", username: "x" } };
    const written = pair(await reactRouters.serialize(value)).slice("__session=".length);
    const raw = decodeURIComponent(written);
    const dot = raw.lastIndexOf(".");
    const forgedValue = Buffer.from(JSON.stringify({ ...value, user: { ...value.user, id: "u2" } })).toString("base64");
    const headers = [
      pair(await signedWith("another secret of forty characters......").serialize(value)),
      `__session=${encodeURIComponent(`${forgedValue}${raw.slice(dot)}`)}`,
      `__session=${encodeURIComponent(`${raw.slice(0, dot)}.${raw.slice(dot + 1, -2)}AA`)}`,
      `__session=${encodeURIComponent(raw.slice(0, dot))}`,
      `__session=${encodeURIComponent(`${raw.slice(0, dot)}.`)}`,
      "__session=.",
      "__session=%E0%A4%A",
      "__session=",
      "other=1",
      "",
    ];
    for (const header of headers) {
      expect(await ours.parse(header), header).toEqual(await reactRouters.parse(header));
      expect(await ours.parse(header), header).not.toEqual(value);
    }
    expect(await ours.parse(null)).toBeNull();
  });

  it("takes the first of two cookies of the same name, as React Router does", async () => {
    const first = pair(await reactRouters.serialize({ n: 1 }));
    const second = pair(await reactRouters.serialize({ n: 2 }));
    expect(await ours.parse(`${first}; ${second}`)).toEqual({ n: 1 });
    expect(await reactRouters.parse(`${first}; ${second}`)).toEqual({ n: 1 });
    expect(await ours.parse(`__session=forged; ${second}`)).toBeNull();
  });

  it("reads a correctly signed value that is not base64 JSON as an empty session, as React Router does", async () => {
    const { createHmac } = await import("node:crypto");
    const sign = (value: string) =>
      `${value}.${createHmac("sha256", options.secrets[0]).update(value).digest("base64").replace(/=+$/, "")}`;
    for (const value of ["bm90IGpzb24", "%%%", Buffer.from([0xff, 0xfe, 0x7b]).toString("base64")]) {
      const header = `__session=${encodeURIComponent(sign(value))}`;
      expect(await ours.parse(header), value).toEqual({});
      expect(await reactRouters.parse(header), value).toEqual({});
    }
  });

  it("writes the cookie React Router writes", async () => {
    expect(ours.name).toBe("__session");
    expect(ours.isSigned).toBe(true);
    expect(await ours.serialize({ a: 1 })).toBe(await reactRouters.serialize({ a: 1 }));
  });
});

describe("cookieValue", () => {
  it("finds a cookie by its exact name, percent-decoded", () => {
    expect(cookieValue("a=1; __session=x%2By; b=2", "__session")).toBe("x+y");
    expect(cookieValue("x__session=1; __session=2", "__session")).toBe("2");
    expect(cookieValue("__session=%zz", "__session")).toBe("%zz");
    expect(cookieValue("a=1", "__session")).toBeUndefined();
  });
});
