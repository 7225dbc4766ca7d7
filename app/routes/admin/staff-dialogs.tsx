// The staff page's two dialogs (staff.tsx): the doctors a receptionist serves, and their
// deactivation, asked first. Opened by the page's URL (?edit=, ?deactivate=), they load with the page
// when it is rendered with one open, and otherwise at the admin's first act (after-hydration.ts): a
// first visit of the list does not fetch them (docs/performance.md, First visit).
import { Form, Link } from "react-router";
import { useTranslation } from "../../i18n.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ActionForm, SubmitButton } from "../../components/submit-button.tsx";
import { DoctorChoice, DoctorSearchForm, type DoctorsFound } from "./doctor-choice.tsx";
import type { StaffMember } from "../../../contract/admin.ts";

/** The id of the doctors dialog's GET search form. */
const EDIT_SEARCH = "staff-edit-doctor-search";

export function DoctorsDialog({
  member,
  found,
  failure,
  closeTo,
  keep,
  idempotencyKey,
}: {
  member: StaffMember;
  found: DoctorsFound;
  /** What the API refused the last change with (a translation key). */
  failure: string | null;
  closeTo: string;
  /** The page's parameters a doctor search keeps (the open dialog). */
  keep: Record<string, string>;
  idempotencyKey: string;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t("admin:staff.doctorsOf", { name: member.username })} closeTo={closeTo} size="lg">
      <Form method="post" preventScrollReset className="space-y-4">
        <input type="hidden" name="staffId" value={member.id} />
        <input type="hidden" name="staffName" value={member.username} />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <FormAlert message={failure} />
        <DoctorChoice
          key={member.id}
          found={found}
          chosen={member.doctors}
          idPrefix={`staff-${member.id}`}
          searchForm={EDIT_SEARCH}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={closeTo} preventScrollReset className="btn-secondary">
            {t("admin:staff.cancel")}
          </Link>
          <SubmitButton name="intent" value="doctors">
            {t("admin:staff.save")}
          </SubmitButton>
        </div>
      </Form>
      <DoctorSearchForm id={EDIT_SEARCH} keep={keep} />
    </Dialog>
  );
}

export function DeactivateDialog({
  member,
  failure,
  closeTo,
  idempotencyKey,
}: {
  member: StaffMember;
  failure: string | null;
  closeTo: string;
  idempotencyKey: string;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t("admin:staff.deactivateTitle", { name: member.username })} closeTo={closeTo}>
      <p className="mb-4 text-sm text-slate-800">{t("admin:staff.deactivateWarning")}</p>
      <FormAlert message={failure} className="mb-4" />
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={closeTo} preventScrollReset className="btn-secondary">
          {t("admin:staff.keep")}
        </Link>
        <ActionForm
          intent="deactivate"
          field="staffId"
          id={member.id}
          idempotencyKey={idempotencyKey}
          className="btn-danger"
          values={{ staffName: member.username }}
        >
          {t("admin:staff.confirmDeactivate")}
        </ActionForm>
      </div>
    </Dialog>
  );
}
