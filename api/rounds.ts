// The loop of the outbox workers (api/mail/outbox.ts, api/sms/outbox.ts) and of the reminders
// (api/reminders.ts): one round at a time; a wake during a round runs another right after it,
// otherwise a round every `pollMs` (other instances' rows, retries). A failed round is logged in one
// line and the next one comes as usual.
import { outsideRequestTransaction } from "./db/index.ts";

export function startRounds(round: () => Promise<void>, { pollMs, label }: { pollMs: number; label: string }) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, pollMs);
    timer.unref();
  }

  function tick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = round()
      .catch((error) => console.error(`${label}: ${(error as Error).message}`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        } else schedule();
      });
  }

  // The first round once the caller holds what this returns (its round may refer to it).
  queueMicrotask(tick);

  return {
    // Routes wake it from inside their request's transaction: the round runs outside it. It sees the
    // rows once that transaction has committed (PGlite makes it wait for the commit; on PostgreSQL a
    // round that ran before the commit leaves them to the next one, pollMs later).
    wake: () => outsideRequestTransaction(tick),
    /** Waits for the round in progress, if any (the first one too, when called right after the start). */
    async settle() {
      await null;
      while (running) await running;
    },
    /** No more rounds; the one in progress finishes. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (running) await running;
    },
    get stopped() {
      return stopped;
    },
  };
}
