// Lists that change while they are on screen (the front desk's day sheet, the doctor's queue): with
// JavaScript their data is read again every `ms`, without a reload, as React Router revalidates after
// a form. Plain timers and the router's own fetch, so nothing new for the Content Security Policy;
// without JavaScript the page is reloaded by hand (docs/product.md, The front desk).
import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";

const REFRESH_MS = 30_000;

export function useAutoRefresh(ms = REFRESH_MS) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // Read inside the timer: the interval is set once, not again at every state change.
  const latest = useRef({ busy: false, revalidate: revalidator.revalidate });
  latest.current = {
    busy: navigation.state !== "idle" || revalidator.state !== "idle",
    revalidate: revalidator.revalidate,
  };
  useEffect(() => {
    const timer = setInterval(() => {
      // A hidden tab waits for a tick once it shows again; a form being sent is not raced.
      if (document.hidden || latest.current.busy) return;
      void latest.current.revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [ms]);
}
