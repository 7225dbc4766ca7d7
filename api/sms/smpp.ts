// The SMPP client (docs/sms.md): one session with the clinic's aggregator, bound as a transceiver
// (or a transmitter with ?bind=transmitter in SMS_URL), kept alive with enquire_link, bound again
// after a drop (waiting 1 s, doubling up to a minute, while the gateway is away or refuses), and
// reading the delivery receipts the gateway sends back. Built on the `smpp` package, which speaks
// the protocol but keeps no session up by itself (ADR 0023). No log line carries the password or
// a message's text.
import smpp, { type PDU, type Session } from "smpp";

interface SmsMessage {
  to: string;
  text: string;
}

/** Where the outbox worker hands a message: returns the gateway's message id when it gives one. */
export interface SmsSender {
  send(message: SmsMessage): Promise<string | undefined>;
  close(): Promise<void>;
  /** The longest one send() may take before it answers or fails: the outbox's lease is made from it. */
  worstCaseMs: number;
}

/**
 * How long the session waits: for the connection and for the bind's answer (`answerMs` each), and
 * for submit_sm's (`submitMs`). A gateway under load may take tens of seconds to accept a message,
 * and giving up on one it did accept sends it twice (the retry): submit_sm waits a minute.
 */
export const SMPP_TIMEOUTS = { answerMs: 20_000, submitMs: 60_000 };

/** A delivery receipt: the message id submit_sm answered with, and its final state (DELIVRD, UNDELIV, ...). */
export interface Receipt {
  messageId: string;
  status: string;
}

// SMPP 3.4's message_state values, named as the receipts' text names them.
const STATES = ["", "ENROUTE", "DELIVRD", "EXPIRED", "DELETED", "UNDELIV", "ACCEPTD", "UNKNOWN", "REJECTD"];

const statusName = (status: number) =>
  Object.entries(smpp.errors).find(([, code]) => code === status)?.[0] ?? `status 0x${status.toString(16)}`;

/** The receipt a deliver_sm carries, if it is one (esm_class bit 0x04): TLVs first, else its text. */
export function readReceipt(pdu: PDU): Receipt | undefined {
  if (!((pdu.esm_class as number) & 0x04)) return undefined;
  const message = pdu.short_message as { message?: string } | string | undefined;
  const text = typeof message === "string" ? message : (message?.message ?? "");
  const id = (pdu.receipted_message_id as string | undefined) || /\bid:(\S+)/i.exec(text)?.[1];
  const state =
    typeof pdu.message_state === "number" ? STATES[pdu.message_state] : /\bstat:(\w+)/i.exec(text)?.[1]?.toUpperCase();
  return id && state ? { messageId: id, status: state } : undefined;
}

export interface SmppOptions {
  /** SMS_URL: smpp[s]://system_id:password@host:port[?bind=transmitter|transceiver]. */
  url: string;
  /** SMS_FROM: the sender ID. */
  from: string;
  onReceipt?: (receipt: Receipt) => void | Promise<void>;
  enquireLinkMs?: number;
  /** How long the connection and the bind wait (SMPP_TIMEOUTS). */
  answerMs?: number;
  /** How long submit_sm waits for its answer (SMPP_TIMEOUTS). */
  submitMs?: number;
  /** First wait before binding again after a drop or a refusal; doubles up to maxRebindMs. */
  rebindMs?: number;
  maxRebindMs?: number;
  log?: (line: string) => void;
}

export function smppSender(options: SmppOptions): SmsSender {
  const {
    from,
    onReceipt,
    enquireLinkMs = 30_000,
    answerMs = SMPP_TIMEOUTS.answerMs,
    submitMs = SMPP_TIMEOUTS.submitMs,
    rebindMs = 1000,
    maxRebindMs = 60_000,
    log = (line) => console.error(line),
  } = options;
  const url = new URL(options.url);
  const target = { host: url.hostname, port: Number(url.port), tls: url.protocol === "smpps:" };
  const credentials = { system_id: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  const transmitter = url.searchParams.get("bind") === "transmitter";
  const where = `${target.host}:${target.port}`;

  let session: Session | undefined;
  let bound: Promise<Session> | undefined;
  // The session once bound (cleared when it drops): the one close() says goodbye to.
  let live: Session | undefined;
  let closed = false;
  let keepAlive: NodeJS.Timeout | undefined;
  let rebindTimer: NodeJS.Timeout | undefined;
  let wait = rebindMs;
  let lastFailure = "not bound";
  // Answers awaited on the current session: a drop fails them at once rather than at their timeout.
  const waiting = new Set<(error: Error) => void>();

  function afterDrop(reason: string) {
    clearInterval(keepAlive);
    session = undefined;
    live = undefined;
    bound = undefined;
    for (const fail of waiting) fail(new Error(`SMPP link to ${where} lost (${reason})`));
    waiting.clear();
    if (closed || rebindTimer) return;
    log(`[sms] gateway ${where}: ${reason}; binding again in ${Math.ceil(wait / 1000)} s`);
    rebindTimer = setTimeout(() => {
      rebindTimer = undefined;
      bind().catch(() => {});
    }, wait);
    rebindTimer.unref();
    wait = Math.min(maxRebindMs, wait * 2);
  }

  /** An answer to `request`, or an error when it does not come within `ms` or the link drops. */
  function answer(s: Session, request: (done: (pdu: PDU) => void) => void, what: string, ms: number): Promise<PDU> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        waiting.delete(fail);
        reject(error);
      };
      const timer = setTimeout(() => {
        fail(new Error(`${what}: no answer from ${where} within ${ms} ms`));
        s.destroy();
      }, ms);
      waiting.add(fail);
      request((pdu) => {
        clearTimeout(timer);
        waiting.delete(fail);
        resolve(pdu);
      });
    });
  }

  function bind(): Promise<Session> {
    if (bound) return bound;
    bound = new Promise<Session>((resolve, reject) => {
      const s = smpp.connect(target);
      session = s;
      let up = false;
      // Over TLS, between the TCP connection and 'secureConnect': a failure then is the handshake's
      // (a certificate no trusted authority signed, or issued for another name), not the network's.
      let handshaking = false;
      s.on("connect", () => (handshaking = target.tls));
      // A gateway that drops the packets would leave the connection pending for minutes.
      const connecting = setTimeout(() => {
        reject(
          new Error(
            handshaking
              ? `TLS with the SMPP gateway at ${where} failed (no handshake within ${answerMs} ms)`
              : `cannot reach the SMPP gateway at ${where} (no connection within ${answerMs} ms)`,
          ),
        );
        s.destroy();
      }, answerMs);
      s.on("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(connecting);
        if (up) return;
        reject(
          new Error(
            handshaking
              ? `TLS with the SMPP gateway at ${where} failed (${error.code ? `${error.code}: ` : ""}${error.message})`
              : `cannot reach the SMPP gateway at ${where} (${error.code ?? error.message})`,
          ),
        );
      });
      s.on("close", () => {
        if (session === s) afterDrop(up ? "connection closed" : lastFailure);
      });
      s.on(target.tls ? "secureConnect" : "connect", async () => {
        clearTimeout(connecting);
        handshaking = false;
        try {
          const request = transmitter ? s.bind_transmitter.bind(s) : s.bind_transceiver.bind(s);
          const pdu = await answer(s, (done) => request(credentials, done), "bind", answerMs);
          if (pdu.command_status !== 0) {
            // Never the password: the status says why (ESME_RINVPASWD, ESME_RBINDFAIL...).
            reject(
              new Error(
                `the SMPP gateway at ${where} refused the bind of ${credentials.system_id} (${statusName(pdu.command_status)})`,
              ),
            );
            s.destroy();
            return;
          }
          up = true;
          live = s;
          wait = rebindMs;
          keepAlive = setInterval(() => s.enquire_link({}, () => {}), enquireLinkMs);
          keepAlive.unref();
          resolve(s);
        } catch (error) {
          reject(error);
        }
      });
      s.on("enquire_link", (pdu: PDU) => s.send(pdu.response()));
      s.on("unbind", (pdu: PDU) => {
        s.send(pdu.response());
        s.close();
      });
      s.on("deliver_sm", (pdu: PDU) => {
        s.send(pdu.response());
        const receipt = readReceipt(pdu);
        if (receipt && onReceipt)
          Promise.resolve(onReceipt(receipt)).catch((error) =>
            log(`[sms] receipt not recorded: ${(error as Error).message}`),
          );
      });
    });
    bound.catch((error: Error) => {
      lastFailure = error.message;
      session?.destroy();
    });
    return bound;
  }

  return {
    // The connection, the bind's answer, then submit_sm's: each has its timeout.
    worstCaseMs: 2 * answerMs + submitMs,
    async send({ to, text }) {
      const s = await bind();
      const alphanumeric = /[A-Za-z]/.test(from);
      const pdu = await answer(
        s,
        (done) =>
          s.submit_sm(
            {
              source_addr: from,
              source_addr_ton: alphanumeric ? 5 : 1,
              source_addr_npi: alphanumeric ? 0 : 1,
              destination_addr: to.replace(/^\+/, ""),
              dest_addr_ton: 1,
              dest_addr_npi: 1,
              // GSM-7 (the SMSC's default alphabet): api/sms/texts.ts writes only its characters.
              data_coding: 0,
              short_message: text,
              registered_delivery: 1,
            },
            done,
          ),
        "submit_sm",
        submitMs,
      );
      if (pdu.command_status !== 0)
        throw new Error(`the SMPP gateway refused the message (${statusName(pdu.command_status)})`);
      return (pdu.message_id as string | undefined) || undefined;
    },
    async close() {
      closed = true;
      clearTimeout(rebindTimer);
      clearInterval(keepAlive);
      const s = session;
      const wasBound = s !== undefined && s === live;
      session = undefined;
      live = undefined;
      if (!s) return;
      // A bound session says goodbye (unbind) for a second at most; any other is cut at once.
      await new Promise<void>((resolve) => {
        const cut = () => {
          s.destroy();
          resolve();
        };
        if (!wasBound) return cut();
        const timer = setTimeout(cut, 1000);
        s.unbind({}, () => {
          clearTimeout(timer);
          cut();
        });
      });
    },
  };
}
