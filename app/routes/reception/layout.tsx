import type { Route } from "./+types/layout";
import { requireUser } from "../../auth.server.ts";

// The front desk's pages, for receptionists only: anyone else goes to their own home. No component:
// React Router renders the child route in its place (as routes/health/layout.tsx).
export const middleware: Route.MiddlewareFunction[] = [requireUser("receptionist")];
