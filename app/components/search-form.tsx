// A GET filter form: works with a submit button without JavaScript; with it, typing in the search
// box submits after 500 ms (docs/product.md, Validation), which only enhances. The box follows the address:
// after 'Clear filters' or Back it shows the search of the page, not what was last typed; the
// answer to its own search leaves it alone.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useEarlyInput } from "../early-input.ts";
import { Form, useSubmit } from "react-router";

const SEARCH_DELAY_MS = 500;

/**
 * Submits a form once typing has paused. remix-utils' useDebounceSubmit did this, deprecated there and
 * more general than this form needs; these few lines are all the list pages load for it
 * (docs/decisions/0003-first-load-javascript-budget.md). A pending submit is dropped on unmount, and
 * by `cancel` when the form is sent by Enter or its button (else it went a second time).
 */
function useSubmitAfterPause() {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    later(form: HTMLFormElement, sending: () => void) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        sending();
        void submit(form, { replace: true, preventScrollReset: true });
      }, SEARCH_DELAY_MS);
    },
    cancel: () => clearTimeout(timer.current),
  };
}

/** The search a form sends, as the page reads it (trimmed). */
const searchOf = (form: HTMLFormElement) => String(new FormData(form).get("search") ?? "").trim();

export function SearchForm({
  label,
  formLabel = label,
  applyLabel,
  placeholder,
  search,
  hidden = {},
  children,
}: {
  label: string;
  /** The name of the search landmark, when it differs from the box's label. */
  formLabel?: string;
  applyLabel: string;
  placeholder?: string;
  search: string;
  hidden?: Record<string, string>;
  children?: ReactNode;
}) {
  const submitAfterPause = useSubmitAfterPause();
  const [value, setValue] = useState(search);
  // What the box itself last sent (as the page reads it, trimmed): the page that answers it must not
  // put it back in the box, where the user may have typed more meanwhile.
  const sent = useRef(search);
  useEffect(() => {
    if (search !== sent.current) setValue(search);
    sent.current = search;
  }, [search]);
  const box = useRef<HTMLInputElement>(null);
  /** Shows what was typed and searches for it after a pause. */
  function typed(field: HTMLInputElement) {
    setValue(field.value);
    const form = field.form;
    if (form) submitAfterPause.later(form, () => (sent.current = searchOf(form)));
  }
  // Typed before the page was interactive: kept, and searched for.
  useEarlyInput(box, value, () => box.current && typed(box.current));
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-wrap items-end gap-2"
      aria-label={formLabel}
      onSubmit={(e) => {
        submitAfterPause.cancel();
        sent.current = searchOf(e.currentTarget);
      }}
    >
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
          ref={box}
          value={value}
          placeholder={placeholder}
          onChange={(e) => typed(e.currentTarget)}
        />
      </div>
      {children}
      <button type="submit" className="btn-secondary">
        {applyLabel}
      </button>
    </Form>
  );
}
