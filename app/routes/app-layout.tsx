// The shared layout of every signed-in screen (SPEC.md section 2): top bar and side menu.
import { Outlet } from "react-router";
import type { Route } from "./+types/app-layout";
import { getUser, requireUser, upstream } from "../auth.server.ts";
import { AppShell } from "../components/app-shell.tsx";
import { ErrorPage } from "../components/page.tsx";

export const middleware: Route.MiddlewareFunction[] = [requireUser()];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context);
  // The bell counts what needs the user's attention; a failure only hides the badge.
  const path = user.role === "patient" ? "/patient/notifications" : user.role === "doctor" ? "/doctor/notifications" : null;
  const answer = path ? await upstream(request, context).call<{ count: number }>("GET", path) : null;
  return {
    user: { role: user.role, username: user.username, avatarUrl: user.avatarUrl },
    attention: answer?.ok ? answer.data.count : 0,
  };
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
