import { useTranslation } from "../../i18n.ts";
import { PageHeader } from "../../components/page.tsx";

export default function Placeholder() {
  const { t } = useTranslation();
  return <PageHeader title={t("placeholders.pharmacyPage")} />;
}
