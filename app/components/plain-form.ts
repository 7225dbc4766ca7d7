// The form and field metadata conform's `useForm` gives on its first render, for a form of flat
// fields (one value or one list of values per name), computed without conform: a form whose
// enhancement loads after hydration (lazy-form.ts) renders with these on the server and during
// hydration, then with conform's own once it has arrived. Ids, names, initial values and errors are
// conform's (@conform-to/react 1.x, `getMetadata`), so the markup does not change at the hand-over.
import type { FieldMetadata, FormMetadata, SubmissionResult } from "@conform-to/react";

/**
 * A field as the plain form gives it: conform's metadata without what only conform's form state
 * has, the field's key, the errors of its subfields, and a nested field's fieldset or a list's items.
 */
export type PlainField<Field = FieldMetadata<unknown, Record<string, unknown>, string[]>> = Omit<Field, "key" | "allErrors" | "defaultOptions" | "getFieldset" | "getFieldList">;
type ConformFields<Schema extends Record<string, unknown>> = ReturnType<FormMetadata<Schema, string[]>["getFieldset"]>;
export type PlainFields<Schema extends Record<string, unknown>> = { [Name in keyof ConformFields<Schema>]: PlainField<ConformFields<Schema>[Name]> };
/**
 * The form as the plain form gives it: conform's metadata without its intents (validate, reset,
 * update, insert, remove, reorder), its context and its key; a use of those does not compile.
 */
export type PlainFormMetadata<Schema extends Record<string, unknown>> = Pick<
  FormMetadata<Schema, string[]>,
  "id" | "errorId" | "descriptionId" | "name" | "initialValue" | "value" | "defaultValue" | "defaultChecked" | "errors" | "valid" | "dirty" | "status" | "noValidate" | "onSubmit"
> & { getFieldset: () => PlainFields<Schema> };

type Value = string | string[] | undefined;

/** One value as conform's state keeps it: strings, "on" for true, no empty string. */
function serialize(value: unknown): Value {
  if (Array.isArray(value)) {
    const items = value.map(serialize).filter((item): item is string => typeof item === "string");
    return items.length ? items : undefined;
  }
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" || typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (value instanceof Date) return value.toISOString();
  return undefined;
}

export interface PlainFormInput {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, unknown> | null;
}

interface PlainState {
  initialValue: Record<string, unknown>;
  error: Record<string, string[] | null | undefined>;
  status?: "success" | "error";
}

function field(formId: string, name: string, state: PlainState) {
  const id = name ? `${formId}-${name}` : formId;
  const initialValue = serialize(state.initialValue[name]);
  const errors = state.error[name];
  return {
    id,
    name,
    formId,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    initialValue,
    value: initialValue,
    defaultValue: Array.isArray(initialValue) ? initialValue[0] : initialValue,
    defaultChecked: initialValue === "on" ? true : undefined,
    errors,
    // conform's: no error entry under this name, the form's own entry counting for the whole form.
    valid: name === "" ? Object.keys(state.error).length === 0 : !Object.entries(state.error).some(([key, error]) => (key === name || key.startsWith(`${name}.`) || key.startsWith(`${name}[`)) && error !== undefined),
    dirty: false,
  };
}

/** `[form, fields]` as conform's `useForm` gives them before any interaction. */
export function plainForm<Schema extends Record<string, unknown>>(formId: string, { lastResult, defaultValue }: PlainFormInput) {
  const state: PlainState = {
    initialValue: (lastResult?.initialValue as Record<string, unknown> | undefined) ?? defaultValue ?? {},
    error: (lastResult?.error as PlainState["error"] | undefined) ?? {},
    status: lastResult?.status,
  };
  const fields = new Proxy({} as Record<string, ReturnType<typeof field>>, {
    get: (target, name) => (typeof name === "string" ? (target[name] ??= field(formId, name, state)) : undefined),
  });
  const form = {
    ...field(formId, "", state),
    status: state.status,
    // conform's `noValidate` is true from its first render (the browser's own checks are off).
    noValidate: true,
    onSubmit: undefined,
    getFieldset: () => fields,
  };
  // Through unknown: conform's branded names and ids are plain strings here.
  return [form, fields] as unknown as [PlainFormMetadata<Schema>, PlainFields<Schema>];
}
