// Avatar image from the API host, falling back to up to two initials (docs/product.md, Screens and routes).
import { useState } from "react";

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

const sizes = { sm: "size-8 text-xs", md: "size-12 text-base", lg: "size-20 text-2xl" };

export function Avatar({ name, url, size = "md" }: { name: string; url?: string | null; size?: keyof typeof sizes }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed) {
    return (
      <img src={url} alt="" className={`${sizes[size]} rounded-full object-cover`} onError={() => setFailed(true)} />
    );
  }
  return (
    // The initials are drawn by CSS, not written as text: they are decoration, and as text they would
    // be part of the visible label of a control holding the avatar (the account menu), which is then
    // not contained in its accessible name.
    <span
      aria-hidden="true"
      data-initials={initials(name)}
      className={`${sizes[size]} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 before:content-[attr(data-initials)]`}
    />
  );
}
