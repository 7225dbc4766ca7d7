// A submit button that shows progress, and the lists' one-button action form made of it, apart
// from the fields and messages (forms.tsx, which re-exports the button): the list pages need these
// alone, and the rest stays out of their first load (docs/decisions/0003-first-load-javascript-budget.md).
import type { ReactNode } from "react";
import { useTranslation } from "../i18n.ts";
import { Form, useNavigation } from "react-router";

/** Submit button that reads 'please wait' with a spinner while its form is being submitted. */
export function SubmitButton({
  children,
  className = "btn-primary",
  name,
  value,
  disabled,
  formAction,
  formNoValidate,
}: {
  children: ReactNode;
  className?: string;
  name?: string;
  value?: string;
  disabled?: boolean;
  formAction?: string;
  /** A step that sends the form as it is, checked or not (conform then leaves it to the server). */
  formNoValidate?: boolean;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy =
    navigation.state === "submitting" &&
    (name === undefined || navigation.formData?.get(name) === value) &&
    (formAction === undefined || navigation.formAction === formAction);
  return (
    <button
      type="submit"
      className={className}
      name={name}
      value={value}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      formAction={formAction}
      formNoValidate={formNoValidate}
      // A mouse press does not take the focus from the field being typed in: leaving a wrong field
      // says what is wrong under it (docs/forms.md), which moves this button down before the mouse
      // is released, and the click was lost. The field is left when the form is checked instead.
      onMouseDown={(event) => {
        if (event.button === 0) event.preventDefault();
      }}
    >
      {busy ? <Spinner /> : null}
      {busy ? <span>{t("common:pleaseWait")}</span> : children}
    </button>
  );
}

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
    />
  );
}

/**
 * A list's action on one object: a form of one button posting `intent`, the object's id (in the
 * field named `field`) and the page's idempotency key (a form sent twice counts once). The page
 * keeps its scroll position when the answer comes.
 */
export function ActionForm({
  intent,
  field,
  id,
  idempotencyKey,
  className,
  values = {},
  children,
}: {
  intent: string;
  field: string;
  id: string;
  idempotencyKey: string;
  className: string;
  /** More hidden fields, for the answer's words (a name the toast says). */
  values?: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name={field} value={id} />
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton className={className} name="intent" value={intent}>
        {children}
      </SubmitButton>
    </Form>
  );
}
