import { ComingSoon } from "../../components/page.tsx";

export default function Page() {
  return <ComingSoon titleKey="nav.appointments" />;
}
