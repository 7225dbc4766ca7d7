// Top bar (logo, health link and disabled insurance for patients, 'doctor portal' for doctors,
// bell, language, account menu) and the side menu by role, collapsed under 1024 px. Menus are
// <details> elements, so they open without JavaScript.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, NavLink } from "react-router";
import { Avatar } from "./avatar.tsx";
import { LanguageMenu } from "./language-menu.tsx";
import { Logo } from "./logo.tsx";

type Role = "patient" | "doctor" | "admin";
interface ShellUser {
  role: Role;
  username: string;
  avatarUrl: string | null;
}

const menus: Record<Role, { to: string; key: string }[]> = {
  patient: [
    { to: "/health/doctors", key: "nav.findDoctor" },
    { to: "/health/doctors/my-appointments", key: "nav.myAppointments" },
    { to: "/health/paramedical", key: "nav.paramedical" },
    { to: "/health/pharmacy", key: "nav.pharmacy" },
  ],
  doctor: [
    { to: "/doctor/dashboard", key: "nav.dashboard" },
    { to: "/doctor/appointments", key: "nav.appointments" },
    { to: "/doctor/consultations", key: "nav.consultations" },
  ],
  admin: [{ to: "/admin", key: "nav.admin" }],
};

function SideMenu({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-1">
      {menus[role].map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end
            className={({ isActive }) =>
              `block rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-800 hover:bg-slate-100"}`
            }
          >
            {t(item.key)}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function AppShell({ user, attention, children }: { user: ShellUser; attention: number; children: ReactNode }) {
  const { t } = useTranslation();
  const profile = user.role === "doctor" ? "/doctor/profile" : user.role === "patient" ? "/patient/profile" : null;
  const attentionLink = user.role === "doctor" ? "/doctor/appointments" : "/health/doctors/my-appointments?tab=open";
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-3 sm:px-4">
        <details className="relative lg:hidden">
          <summary className="btn-secondary cursor-pointer list-none px-2 py-1" aria-label={t("nav.openMenu")}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
              <path d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
            </svg>
          </summary>
          <nav aria-label={t("nav.mainMenu")} className="absolute top-11 left-0 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
            <SideMenu role={user.role} />
          </nav>
        </details>
        <Link to="/" aria-label={t("nav.home")}>
          <Logo />
        </Link>
        <div className="hidden items-center gap-2 md:flex">
          {user.role === "patient" ? (
            <>
              <Link to="/health/doctors" className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100">
                {t("nav.health")}
              </Link>
              <button type="button" disabled className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-500">
                {t("nav.insurance")}
              </button>
            </>
          ) : null}
          {user.role === "doctor" ? <span className="rounded-md bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">{t("nav.doctorPortal")}</span> : null}
        </div>
        <div className="ml-auto flex items-center gap-2">
          {user.role !== "admin" ? (
            <Link to={attentionLink} className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100" aria-label={t("nav.notifications", { count: attention })}>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
                <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22m7-6V11a7 7 0 0 0-5-6.71V3a2 2 0 0 0-4 0v1.29A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
              </svg>
              {attention > 0 ? (
                <span aria-hidden="true" className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold text-white">
                  {attention > 99 ? "99+" : attention}
                </span>
              ) : null}
            </Link>
          ) : null}
          <LanguageMenu />
          <details className="relative">
            <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100" aria-label={t("nav.accountMenu")}>
              <Avatar name={user.username} url={user.avatarUrl} size="sm" />
            </summary>
            <div className="absolute top-11 right-0 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
              <p className="truncate px-3 py-2 text-sm font-semibold text-slate-900">{user.username}</p>
              <ul className="space-y-1">
                {profile ? (
                  <li>
                    <Link className="block rounded-md px-3 py-2 text-sm text-slate-800 hover:bg-slate-100" to={profile}>
                      {t("nav.profile")}
                    </Link>
                  </li>
                ) : null}
                <li>
                  <Link className="block rounded-md px-3 py-2 text-sm text-slate-800 hover:bg-slate-100" to="/settings">
                    {t("nav.settings")}
                  </Link>
                </li>
                <li>
                  <Form method="post" action="/logout">
                    <button type="submit" className="block w-full rounded-md px-3 py-2 text-left text-sm text-red-800 hover:bg-red-50">
                      {t("nav.logout")}
                    </button>
                  </Form>
                </li>
              </ul>
            </div>
          </details>
        </div>
      </header>
      <div className="flex">
        <nav aria-label={t("nav.sideMenu")} className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-56 shrink-0 border-r border-slate-200 bg-white p-3 lg:block">
          <SideMenu role={user.role} />
        </nav>
        <div className="min-w-0 flex-1 p-4 sm:p-6">{children}</div>
      </div>
    </div>
  );
}
