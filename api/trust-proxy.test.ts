// TRUST_PROXY (validated by config.ts) honoured behind a proxy: X-Forwarded-For names the client
// only when the hop that sent it is trusted, in the web server and in the API.
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../config.ts";
import { apiTrustFunction, trustFunction, type TrustProxy } from "./trust-proxy.ts";
import { type Served, serve } from "./test/serve.ts";

describe("behind a proxy", () => {
  // A server that answers the client address Express derives, as the web tier and the API do.
  let setting: TrustProxy = false;
  let api = false;
  let served: Served;
  let url: string;
  beforeAll(async () => {
    const app = express();
    app.set("trust proxy", (address: string, hop: number) =>
      (api ? apiTrustFunction(setting) : trustFunction(setting))(address, hop),
    );
    app.get("/", (req, res) => {
      res.send(req.ip);
    });
    served = await serve(app);
    url = `${served.url}/`;
  });
  afterAll(() => served.close());

  /** The address the server sees for a request from 127.0.0.1 (the proxy) carrying `forwarded`. */
  const seen = async (value: string, forwarded: string, asApi = false) => {
    setting = readConfig({ TRUST_PROXY: value }).TRUST_PROXY;
    api = asApi;
    return (await fetch(url, { headers: { "x-forwarded-for": forwarded } })).text();
  };

  it("false: the header is ignored, the address is the peer's (and no crash)", async () => {
    expect(await seen("false", "203.0.113.9")).toBe("127.0.0.1");
  });

  it("the default (loopback) and a matching list: a proxy on this host is believed", async () => {
    expect(await seen("", "203.0.113.9")).toBe("203.0.113.9");
    expect(await seen("127.0.0.0/8", "203.0.113.9")).toBe("203.0.113.9");
  });

  it("a list that does not hold the proxy: the header is ignored", async () => {
    expect(await seen("10.0.0.0/8", "203.0.113.9")).toBe("127.0.0.1");
  });

  it("a hop count: only that many entries from the right are believed, a forged first entry is not", async () => {
    expect(await seen("1", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    expect(await seen("2", "6.6.6.6, 10.1.1.1, 203.0.113.9")).toBe("10.1.1.1");
    expect(await seen("true", "6.6.6.6, 203.0.113.9")).toBe("6.6.6.6");
  });

  it("the API always believes its own web tier on loopback for one hop, and no further unless told", async () => {
    expect(await seen("false", "6.6.6.6, 203.0.113.9", true)).toBe("203.0.113.9");
    expect(await seen("10.0.0.0/8", "6.6.6.6, 10.1.1.1, 203.0.113.9", true)).toBe("203.0.113.9");
  });
});
