// conform's form state for lazy-form.tsx, loaded after hydration: runs `useForm` and hands its
// metadata to the form, which renders it.
import { memo, type RefObject, useLayoutEffect } from "react";
import { useForm } from "@conform-to/react";

export type BridgeOptions = Parameters<typeof useForm<Record<string, unknown>>>[0] & { id: string };
export type Metadata = ReturnType<typeof useForm<Record<string, unknown>>>;

interface Props {
  options: RefObject<BridgeOptions>;
  onChange: (metadata: Metadata) => void;
  // Only there to re-render the bridge when they change (memo): the values are read from `options`.
  formId: string;
  lastResult: unknown;
  validates: boolean;
  shouldValidate?: string;
  shouldRevalidate?: string;
}

export const ConformBridge = memo(function ConformBridge({ options, onChange, formId }: Props) {
  const current = options.current;
  const metadata = useForm({
    ...current,
    id: formId,
    // The route's validation may close over values of its latest render (`validates` re-renders the
    // bridge when the validation comes or goes).
    onValidate: current.onValidate && ((context) => options.current.onValidate!(context)),
  });
  useLayoutEffect(() => {
    onChange(metadata);
    // A mark that the form is enhanced (browser tests wait for it before testing client validation).
    document.forms.namedItem(formId)?.setAttribute("data-enhanced", "");
  });
  return null;
});

export type Bridge = typeof ConformBridge;
