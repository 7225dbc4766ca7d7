// A real SMPP gateway on 127.0.0.1 for the tests (API tests, and the browser tests' world in
// tests/e2e/server.ts), made with the `smpp` package's server: it checks the bind's system_id and
// password, keeps every submit_sm it accepts, answers with a message id and sends a delivery
// receipt back to a transceiver. It can be stopped and started again on the same port (a gateway
// that goes away and comes back), told to refuse binds, and made slow (`answerAfterMs`: a gateway
// that answers submit_sm late, having received the message at once). Given a key and certificate
// (api/test/tls-certificates.ts), it serves SMPP over TLS, and its url() is smpps://.
import type { AddressInfo } from "node:net";
import smpp, { type PDU, type Session } from "smpp";
import type { TestCertificate } from "./tls-certificates.ts";

export interface ReceivedSms {
  from: string;
  to: string;
  text: string;
  dataCoding: number;
  messageId: string;
}

export async function startSmppServer(
  options: { port?: number; systemId?: string; password?: string; tls?: TestCertificate; answerAfterMs?: number } = {},
) {
  const systemId = options.systemId ?? "clinic";
  const password = options.password ?? "s3cret";
  const received: ReceivedSms[] = [];
  const listeners = new Set<() => void>();
  let binds = 0;
  let enquireLinks = 0;
  const bindKinds: string[] = [];
  let refusedBinds = 0;
  let refuseBinds = false;
  let counter = 0;
  let port = options.port ?? 0;

  function onSession(session: Session) {
    let transceiver = false;
    session.on("error", () => {});
    const bind = (pdu: PDU) => {
      binds++;
      const ok = !refuseBinds && pdu.system_id === systemId && pdu.password === password;
      if (!ok) refusedBinds++;
      transceiver = pdu.command === "bind_transceiver";
      bindKinds.push(pdu.command);
      session.send(pdu.response({ command_status: ok ? 0 : smpp.ESME_RINVPASWD }));
    };
    session.on("bind_transceiver", bind);
    session.on("bind_transmitter", bind);
    session.on("enquire_link", (pdu: PDU) => {
      enquireLinks++;
      session.send(pdu.response());
    });
    session.on("unbind", (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on("submit_sm", (pdu: PDU) => {
      const messageId = `m${++counter}`;
      const message = pdu.short_message as { message: string };
      received.push({
        from: String(pdu.source_addr),
        to: String(pdu.destination_addr),
        text: message.message,
        dataCoding: pdu.data_coding as number,
        messageId,
      });
      const answer = () => {
        session.send(pdu.response({ message_id: messageId }));
        if (transceiver && pdu.registered_delivery)
          session.deliver_sm({
            source_addr: pdu.destination_addr,
            destination_addr: pdu.source_addr,
            esm_class: 0x04,
            short_message: `id:${messageId} sub:001 dlvrd:001 submit date:2611281200 done date:2611281200 stat:DELIVRD err:000 text:`,
            receipted_message_id: messageId,
            message_state: 2,
          });
      };
      if (options.answerAfterMs) setTimeout(answer, options.answerAfterMs);
      else answer();
      for (const listener of listeners) listener();
    });
  }

  let server: smpp.Server | undefined;
  async function start() {
    server = smpp.createServer({ ...options.tls }, onSession);
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(port, "127.0.0.1", () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  }

  /** Closes the port and drops every session, as a gateway that goes away. */
  async function stop() {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const session of [...s.sessions]) session.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await start();

  return {
    get port() {
      return port;
    },
    /** SMS_URL of this gateway, with another password if given. */
    url: (pass = password) =>
      `${options.tls ? "smpps" : "smpp"}://${systemId}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    get binds() {
      return binds;
    },
    get refusedBinds() {
      return refusedBinds;
    },
    /** bind_transceiver or bind_transmitter, for each bind. */
    bindKinds,
    get enquireLinks() {
      return enquireLinks;
    },
    /** Cuts every session, the port staying open: a link that drops. */
    dropSessions() {
      for (const session of [...(server?.sessions ?? [])]) session.destroy();
    },
    refuseBinds(refuse: boolean) {
      refuseBinds = refuse;
    },
    /** The messages to `to` (E.164 with or without +) once there are `count` of them, within `ms`. */
    async waitFor(to: string, count = 1, ms = 10_000): Promise<ReceivedSms[]> {
      const number = to.replace(/^\+/, "");
      const mine = () => received.filter((m) => m.to === number);
      const deadline = Date.now() + ms;
      while (mine().length < count) {
        if (Date.now() > deadline) throw new Error(`${mine().length} SMS to ${to} after ${ms} ms, waited for ${count}`);
        await new Promise<void>((resolve) => {
          const done = () => {
            listeners.delete(done);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(done, 100);
          listeners.add(done);
        });
      }
      return mine();
    },
    start,
    stop,
  };
}

export type SmppServer = Awaited<ReturnType<typeof startSmppServer>>;

/** The 6-digit code an SMS holds. */
export const codeIn = (sms: ReceivedSms | undefined) => sms?.text.match(/\b(\d{6})\b/)?.[1];
