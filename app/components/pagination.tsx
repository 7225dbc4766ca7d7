// Previous / next links of every paged list (doctors, appointments, proposals, consultations);
// plain links, so paging works without JavaScript.
import { useTranslation } from "../i18n.ts";
import { Link } from "react-router";

export function Pagination({
  page,
  totalPages,
  linkTo,
  label,
}: {
  page: number;
  totalPages: number;
  linkTo: (page: number) => string;
  label?: string;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  return (
    <nav
      aria-label={label ?? t("common:pagination.label")}
      className="mt-4 flex items-center justify-between gap-2 text-sm"
    >
      {page > 1 ? (
        <Link className="btn-secondary" to={linkTo(page - 1)} preventScrollReset>
          {t("common:pagination.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span>{t("common:pagination.page", { page, total: totalPages })}</span>
      {page < totalPages ? (
        <Link className="btn-secondary" to={linkTo(page + 1)} preventScrollReset>
          {t("common:pagination.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
