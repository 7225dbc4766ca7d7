// Six single-digit boxes posted together as code0..code5 (docs/product.md, Screens and routes, verification).
// Without JavaScript they are plain inputs; with it, typing advances, backspace on an empty box
// goes back, and pasting spreads the first six digits (used only when exactly six remain).
import { useRef, useState, type ReactNode } from "react";
import { useHydrated, useTranslation } from "../i18n.ts";
import { Form, useNavigation } from "react-router";
import { FormAlert } from "./form-alert.tsx";
import { SubmitButton } from "./submit-button.tsx";

const CODE_LENGTH = 6;

/** The code from the six boxes of a submitted form. */
export function readCode(formData: FormData): string {
  return Array.from({ length: CODE_LENGTH }, (_, i) => String(formData.get(`code${i}`) ?? "").trim()).join("");
}

export function CodeInput({
  onChange,
  invalid,
  describedBy,
  autoFocus,
}: {
  onChange?: (code: string) => void;
  invalid?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const emit = () => onChange?.(boxes.current.map((b) => b?.value ?? "").join(""));

  return (
    <fieldset className="flex justify-center gap-1 sm:gap-2" aria-describedby={describedBy}>
      <legend className="sr-only">{t("auth:code.legend")}</legend>
      {Array.from({ length: CODE_LENGTH }, (_, i) => (
        <input
          // biome-ignore lint/suspicious/noArrayIndexKey: six fixed boxes; the position is the identity
          key={i}
          ref={(el) => {
            boxes.current[i] = el;
          }}
          name={`code${i}`}
          aria-label={t("auth:code.digit", { n: i + 1 })}
          inputMode="numeric"
          autoComplete={i === 0 ? "one-time-code" : "off"}
          pattern="[0-9]"
          maxLength={1}
          required
          // biome-ignore lint/a11y/noAutofocus: the code page has one task, typing the code; the caller asks for it
          autoFocus={autoFocus && i === 0}
          aria-invalid={invalid || undefined}
          className="input h-12 w-full max-w-12 min-w-0 flex-1 px-0 text-center text-xl font-semibold"
          onChange={(e) => {
            const digit = e.currentTarget.value.replace(/\D/g, "").slice(-1);
            e.currentTarget.value = digit;
            if (digit && i < CODE_LENGTH - 1) boxes.current[i + 1]?.focus();
            emit();
          }}
          onKeyDown={(e) => {
            if (e.key === "Backspace" && !e.currentTarget.value && i > 0) {
              e.preventDefault();
              const previous = boxes.current[i - 1];
              if (previous) {
                previous.value = "";
                previous.focus();
              }
              emit();
            }
          }}
          onPaste={(e) => {
            const digits = e.clipboardData.getData("text").replace(/\D/g, "").slice(0, CODE_LENGTH);
            e.preventDefault();
            if (digits.length !== CODE_LENGTH) return;
            digits.split("").forEach((d, j) => {
              const box = boxes.current[j];
              if (box) box.value = d;
            });
            boxes.current[CODE_LENGTH - 1]?.focus();
            emit();
          }}
        />
      ))}
    </fieldset>
  );
}

/**
 * A form that posts a code (intent=verify): its error and notice, the six boxes and the submit
 * button. Editing a digit clears the error (docs/product.md, Screens and routes). With JavaScript the button waits
 * for all six digits; without it the browser's `required` does.
 */
export function CodeForm({
  error,
  notice,
  extra,
  intent = "verify",
  children,
}: {
  error?: string | null;
  notice?: string | null;
  /** Fields posted with the code (the verification page's date of birth). */
  extra?: ReactNode;
  /** The submit button's intent, for a page with two code forms (the settings' phone and e-mail). */
  intent?: string;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [code, setCode] = useState("");
  const [edited, setEdited] = useState(false);
  const shown = edited ? null : error;
  return (
    <Form method="post" className="space-y-4" onSubmit={() => setEdited(false)}>
      <FormAlert message={shown} />
      <FormAlert tone="info" message={notice} />
      <CodeInput
        autoFocus
        invalid={Boolean(shown)}
        onChange={(value) => {
          setCode(value);
          setEdited(true);
        }}
      />
      {extra}
      <SubmitButton
        className="btn-primary w-full"
        name="intent"
        value={intent}
        disabled={hydrated && (code.length !== CODE_LENGTH || navigation.state !== "idle")}
      >
        {children}
      </SubmitButton>
    </Form>
  );
}
