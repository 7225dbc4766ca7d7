// The web app as an Express sub-app; the server build's entry (see vite.config.ts).
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import { nonceContext } from "./context.ts";
import { requestInfoContext } from "./upstream.server.ts";

export const webApp = express();
webApp.disable("x-powered-by");

webApp.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext(req, res) {
      const context = new RouterContextProvider();
      context.set(nonceContext, String(res.locals.nonce ?? ""));
      context.set(requestInfoContext, { ip: req.ip ?? "", requestId: String(req.id ?? "") });
      return context;
    },
  }),
);
