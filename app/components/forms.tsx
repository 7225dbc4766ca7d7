// Form pieces shared by every screen: labelled fields with translated errors, and (from their own
// files, so a page that needs only them does not load the fields) a form-level error banner and a
// submit button that shows progress while the request is in flight.
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useTranslation } from "../i18n.ts";

export { SubmitButton } from "./submit-button.tsx";
export { FormAlert } from "./form-alert.tsx";

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-error">
      {errors.map((e) => (
        <li key={e}>{t(e)}</li>
      ))}
    </ul>
  );
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  errors?: string[] | null;
  hint?: ReactNode;
}

export function Field({ label, errors, hint, id, className, ...input }: FieldProps) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const invalid = Boolean(errors?.length);
  return (
    <div className={className}>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <input
        id={inputId}
        className="input"
        aria-invalid={invalid || undefined}
        aria-describedby={[invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  errors?: string[] | null;
  children: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

export function SelectField({ label, errors, id, className, children, ...select }: SelectFieldProps) {
  const fallbackId = useId();
  const selectId = id ?? fallbackId;
  const invalid = Boolean(errors?.length);
  return (
    <div className={className}>
      <label htmlFor={selectId} className="label">
        {label}
      </label>
      <select
        id={selectId}
        className="input"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${selectId}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      <FieldErrors id={`${selectId}-error`} errors={errors} />
    </div>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  errors?: string[] | null;
}

export function TextAreaField({ label, errors, id, className, ...area }: TextAreaFieldProps) {
  const fallbackId = useId();
  const areaId = id ?? fallbackId;
  const invalid = Boolean(errors?.length);
  return (
    <div className={className}>
      <label htmlFor={areaId} className="label">
        {label}
      </label>
      <textarea
        id={areaId}
        className="input"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${areaId}-error` : undefined}
        {...area}
      />
      <FieldErrors id={`${areaId}-error`} errors={errors} />
    </div>
  );
}
