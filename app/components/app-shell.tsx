// Top bar (logo, health link and disabled insurance for patients, 'doctor portal' for doctors,
// bell for patients and doctors, language, account menu) and the side menu by role, collapsed under 1024 px. Menus are
// <details> elements, so they open without JavaScript; with it they also close on navigation and
// on Escape. Phone first (docs/layout.md): what does not fit the bar moves into the menu, so the
// bar holds only the menu, logo, bell and account menu at 320 px.
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "../i18n.ts";
import { Form, Link, NavLink, useLocation } from "react-router";
import { Avatar } from "./avatar.tsx";
import { LanguageMenu } from "./language-menu.tsx";
import { Logo } from "./logo.tsx";
import { NOTIFICATIONS_PAGE } from "../notifications.ts";
import type { Role } from "../../contract/constants.ts";

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
    { to: "/doctor/queue", key: "doctor:queue.title" },
    { to: "/doctor/appointments", key: "nav.appointments" },
    { to: "/doctor/consultations", key: "nav.consultations" },
    { to: "/doctor/availability", key: "doctor:availability.title" },
  ],
  admin: [
    { to: "/admin", key: "nav.admin" },
    { to: "/admin/closures", key: "admin:closures.title" },
    { to: "/admin/staff", key: "admin:staff.title" },
  ],
  receptionist: [
    { to: "/reception", key: "reception:day.title" },
    { to: "/reception/patients", key: "reception:patients.title" },
  ],
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

/** The role's top-bar links and labels: in the bar from 768 px, in the menu below. */
function RoleItems({ role, inMenu }: { role: Role; inMenu: boolean }) {
  const { t } = useTranslation();
  const item = inMenu ? "block w-full px-3 py-2 text-left" : "px-3 py-1.5";
  if (role === "patient") {
    return (
      <>
        <Link
          to="/health/doctors"
          className={`${item} rounded-md text-sm font-medium text-slate-800 hover:bg-slate-100`}
        >
          {t("nav.health")}
        </Link>
        <button type="button" disabled className={`${item} rounded-md text-sm font-medium text-slate-500`}>
          {t("nav.insurance")}
        </button>
      </>
    );
  }
  if (role === "doctor")
    return (
      <span className={`${item} block rounded-md bg-brand-50 text-sm font-semibold text-brand-800`}>
        {t("nav.doctorPortal")}
      </span>
    );
  return null;
}

/**
 * With JavaScript, an open menu closes when the page changes (a client navigation keeps the
 * header's <details> as they were) and on Escape, which gives focus back to its button.
 */
function useClosingMenus() {
  const header = useRef<HTMLElement>(null);
  const location = useLocation();
  // The page the menus were opened on: a menu a slow phone's user opened before the scripts ran is
  // left open when they start; only a new page closes it.
  const shown = useRef(location.key);
  useEffect(() => {
    if (shown.current === location.key) return;
    shown.current = location.key;
    for (const menu of header.current?.querySelectorAll("details[open]") ?? [])
      (menu as HTMLDetailsElement).open = false;
  }, [location.key]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      for (const menu of header.current?.querySelectorAll<HTMLDetailsElement>("details[open]") ?? []) {
        const hadFocus = menu.contains(document.activeElement);
        menu.open = false;
        if (hadFocus) menu.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return header;
}

export function AppShell({ user, attention, children }: { user: ShellUser; attention: number; children: ReactNode }) {
  const { t } = useTranslation();
  const header = useClosingMenus();
  const profile = user.role === "doctor" ? "/doctor/profile" : user.role === "patient" ? "/patient/profile" : null;
  return (
    <div className="min-h-screen">
      <header
        ref={header}
        className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white px-2 sm:gap-3 sm:px-4"
      >
        <details className="relative lg:hidden">
          <summary className="btn-secondary cursor-pointer list-none px-2 py-1" aria-label={t("nav.openMenu")}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
              <path d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
            </svg>
          </summary>
          <nav
            aria-label={t("nav.mainMenu")}
            className="absolute top-11 left-0 max-h-[calc(100vh-4rem)] w-64 max-w-[calc(100vw-1rem)] overflow-y-auto rounded-md border border-slate-200 bg-white p-2 shadow-lg"
          >
            <SideMenu role={user.role} />
            <div className="mt-2 space-y-1 border-t border-slate-200 pt-2 md:hidden">
              <RoleItems role={user.role} inMenu />
            </div>
            <div className="mt-2 border-t border-slate-200 px-3 pt-2 sm:hidden">
              <LanguageMenu />
            </div>
          </nav>
        </details>
        {/* Named by the visible logo text, which voice control users read out. */}
        <Link to="/" className="min-w-0 shrink">
          <Logo />
        </Link>
        <div className="hidden items-center gap-2 md:flex">
          <RoleItems role={user.role} inMenu={false} />
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          {user.role === "patient" || user.role === "doctor" ? (
            <Link
              to={NOTIFICATIONS_PAGE}
              className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
              aria-label={t("nav.notifications", { count: attention })}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
                <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22m7-6V11a7 7 0 0 0-5-6.71V3a2 2 0 0 0-4 0v1.29A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
              </svg>
              {attention > 0 ? (
                <span
                  aria-hidden="true"
                  className="absolute top-0 right-0 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold text-white"
                >
                  {attention > 99 ? "99+" : attention}
                </span>
              ) : null}
            </Link>
          ) : null}
          <div className="hidden sm:block">
            <LanguageMenu />
          </div>
          <details className="relative">
            <summary
              className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100"
              aria-label={t("nav.accountMenu")}
            >
              <Avatar name={user.username} url={user.avatarUrl} size="sm" />
            </summary>
            <div className="absolute top-11 right-0 w-56 max-w-[calc(100vw-1rem)] rounded-md border border-slate-200 bg-white p-2 shadow-lg">
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
                    <button
                      type="submit"
                      className="block w-full rounded-md px-3 py-2 text-left text-sm text-red-800 hover:bg-red-50"
                    >
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
        <nav
          aria-label={t("nav.sideMenu")}
          className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-56 shrink-0 border-r border-slate-200 bg-white p-3 lg:block"
        >
          <SideMenu role={user.role} />
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none sm:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}
