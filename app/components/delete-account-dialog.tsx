// The profile pages' account deletion dialog (?delete=1), apart from profile.tsx so that a profile
// page loads it only once interactive (docs/decisions/0003-first-load-javascript-budget.md).
import { useTranslation } from "../i18n.ts";
import { Form, Link } from "react-router";
import { Dialog } from "./dialog.tsx";
import { FormAlert } from "./form-alert.tsx";
import { SubmitButton } from "./submit-button.tsx";
import type { Role } from "./profile.tsx";

/** The ?delete=1 dialog: the warning, 'Keep my account' and 'Delete my account' (intent=delete); a refusal is said inside it. */
export function DeleteAccountDialog({
  role,
  idempotencyKey,
  error,
}: {
  role: Role;
  idempotencyKey: string;
  error?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t(`${role}:profile.deleteTitle`)} closeTo={`/${role}/profile`}>
      <p className="mb-4 text-sm text-slate-800">{t(`${role}:profile.deleteWarning`)}</p>
      <FormAlert message={error} className="mb-4" />
      <Form method="post" className="flex flex-wrap justify-end gap-2">
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Link to={`/${role}/profile`} className="btn-secondary">
          {t(`${role}:profile.keepAccount`)}
        </Link>
        <SubmitButton className="btn-danger" name="intent" value="delete">
          {t(`${role}:profile.deleteConfirm`)}
        </SubmitButton>
      </Form>
    </Dialog>
  );
}
