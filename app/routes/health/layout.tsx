import type { Route } from "./+types/layout";
import { requireUser } from "../../auth.server.ts";

// The patient's pages, for patients only. No component: React Router renders the child route in
// its place, and the browser gets no module for this route (docs/decisions/0003-first-load-javascript-budget.md).
export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];
