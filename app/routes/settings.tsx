import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { Route } from "./+types/settings";
import { getUser } from "../auth.server.ts";
import { LanguageMenu } from "../components/language-menu.tsx";
import { PageHeader } from "../components/page.tsx";

export function loader({ context }: Route.LoaderArgs) {
  return { role: getUser(context).role };
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const profile = loaderData.role === "doctor" ? "/doctor/profile" : loaderData.role === "patient" ? "/patient/profile" : null;
  return (
    <section className="max-w-xl space-y-4">
      <PageHeader title={t("settings.title")} />
      <div className="card flex items-center justify-between gap-4">
        <p className="text-sm font-medium">{t("settings.language")}</p>
        <LanguageMenu />
      </div>
      {profile ? (
        <div className="card flex items-center justify-between gap-4">
          <p className="text-sm font-medium">{t("settings.profile")}</p>
          <Link className="btn-secondary" to={profile}>
            {t("nav.profile")}
          </Link>
        </div>
      ) : null}
      <Form method="post" action="/logout" className="card flex items-center justify-between gap-4">
        <p className="text-sm font-medium">{t("settings.session")}</p>
        <button type="submit" className="btn-danger">
          {t("nav.logout")}
        </button>
      </Form>
    </section>
  );
}
