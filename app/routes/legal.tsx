import { useTranslation } from "../i18n.ts";
import { Link } from "react-router";
import type { Route } from "./+types/legal";
import { getT } from "../i18n.server.ts";
import { AuthFrame } from "./auth/layout.tsx";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

export function loader({ context, request }: Route.LoaderArgs) {
  const page = new URL(request.url).pathname === "/privacy" ? "privacy" : "terms";
  return { title: getT(context)(`common:legal.${page}.title`), page };
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const page = loaderData.page;
  return (
    <AuthFrame title={t(`common:legal.${page}.title`)}>
      <div className="space-y-3 text-sm text-slate-800">
        {(t(`common:legal.${page}.body`, { returnObjects: true }) as string[]).map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      <p className="mt-6 text-center text-sm">
        <Link className="link-alone" to="/">
          {t("common:errors.home")}
        </Link>
      </p>
    </AuthFrame>
  );
}
