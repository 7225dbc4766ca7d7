// The shared layout of every signed-in screen (SPEC.md section 2): top bar and side menu.
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import type { Route } from "./+types/app-layout";
import { getUser, requireUser, upstream } from "../auth.server.ts";
import { AppShell } from "../components/app-shell.tsx";

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
  const { t } = useTranslation();
  const status = (error as { status?: number })?.status ?? 500;
  const key = status === 404 ? "notFound" : status === 403 ? "forbidden" : status === 503 ? "unavailable" : "generic";
  return (
    <main className="mx-auto flex max-w-lg flex-col items-center gap-4 p-10 text-center">
      <title>{t(`errors.${key}.title`)}</title>
      <p className="text-5xl font-bold text-brand-700">{status}</p>
      <h1 className="text-2xl font-semibold">{t(`errors.${key}.title`)}</h1>
      <p className="text-slate-700">{t(`errors.${key}.body`)}</p>
      <div className="flex gap-3">
        <a className="btn-secondary" href="">
          {t("errors.retry")}
        </a>
        <a className="btn-primary" href="/">
          {t("errors.home")}
        </a>
      </div>
    </main>
  );
}
