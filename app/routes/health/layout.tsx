import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "../../auth.server.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];

export default function HealthLayout() {
  return <Outlet />;
}
