// An app of a test's own on a free loopback port (the API mounted behind observe(), a bare server
// reading what Express derives), the one way API tests start and stop one.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type express from "express";

export interface Served {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  url: string;
  server: Server;
  /** Ends the kept-alive connections first (fetch keeps them): server.close alone would wait on them. */
  close: () => Promise<void>;
}

export async function serve(app: express.Express): Promise<Served> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, close };
}
