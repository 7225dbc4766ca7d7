import type { Route } from "./+types/index";
import { requireUser } from "../../auth.server.ts";
import { ComingSoon } from "../../components/page.tsx";

export const middleware: Route.MiddlewareFunction[] = [requireUser("admin")];

export default function Page() {
  return <ComingSoon titleKey="nav.admin" />;
}
