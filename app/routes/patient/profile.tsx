import type { Route } from "./+types/profile";
import { requireUser } from "../../auth.server.ts";
import { ComingSoon } from "../../components/page.tsx";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];

export default function Page() {
  return <ComingSoon titleKey="nav.profile" />;
}
