import { useTranslation } from "../i18n.ts";

export function Logo() {
  const { t } = useTranslation();
  return (
    <span className="flex items-center gap-2 font-bold text-brand-700">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7 fill-brand-600">
        <path d="M10 3h4v7h7v4h-7v7h-4v-7H3v-4h7z" />
      </svg>
      <span>{t("common:appName")}</span>
    </span>
  );
}
