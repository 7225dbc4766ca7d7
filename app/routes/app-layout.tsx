// The shared layout of every signed-in screen (docs/product.md, Screens and routes): top bar and side menu.
import { Outlet, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/app-layout";
import { getUser, requireUser } from "../auth.server.ts";
import { summaryMiddleware, summaryOf } from "../summary.server.ts";
import { AppShell } from "../components/app-shell.tsx";
import { ErrorPage } from "../components/page.tsx";
import { NOTIFICATIONS_PAGE } from "../notifications.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser(), summaryMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context);
  // The bell counts what needs the user's attention; a failure only hides the badge. A doctor's
  // verification state comes in the same answer (routes/doctor/layout.tsx reads it from here):
  // null when the API did not answer, which is never taken for verified.
  const summary = await summaryOf(context);
  return {
    user: { role: user.role, username: user.username, avatarUrl: user.avatarUrl },
    attention: summary?.count ?? 0,
    verification: user.role === "doctor" ? (summary?.verification ?? null) : null,
    rejectionReason: user.role === "doctor" ? (summary?.rejectionReason ?? null) : null,
  };
}

// Opening the bell's page marks entries seen: its count is read again there, also on a client
// navigation, which would otherwise keep the layout's count from the page before.
export function shouldRevalidate({ nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return nextUrl.pathname === NOTIFICATIONS_PAGE || defaultShouldRevalidate;
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user} attention={loaderData.attention}>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage status={(error as { status?: number })?.status ?? 500} className="p-10" />;
}
