// A GET filter form: works with a submit button without JavaScript; with it, typing in the search
// box submits after 500 ms (SPEC.md section 5), which only enhances.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { useDebounceSubmit } from "remix-utils/use-debounce-submit";

export function SearchForm({
  label,
  placeholder,
  search,
  hidden = {},
  children,
}: {
  label: string;
  placeholder?: string;
  search: string;
  hidden?: Record<string, string>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const submit = useDebounceSubmit();
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2" aria-label={label}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="min-w-48 flex-1">
        <label htmlFor="search" className="label">
          {label}
        </label>
        <input
          id="search"
          type="search"
          name="search"
          className="input"
          defaultValue={search}
          placeholder={placeholder}
          onChange={(e) => {
            const form = e.currentTarget.form;
            if (form) void submit(form, { debounceTimeout: 500, replace: true, preventScrollReset: true });
          }}
        />
      </div>
      {children}
      <button type="submit" className="btn-secondary">
        {t("doctor:filters.apply")}
      </button>
    </Form>
  );
}
