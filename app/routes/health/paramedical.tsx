import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page.tsx";

export default function Placeholder() {
  const { t } = useTranslation();
  return <PageHeader title={t("placeholders.paramedicalPage")} />;
}
