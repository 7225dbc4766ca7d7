// The part of the `smpp` package (node-smpp, untyped) that api/sms/smpp.ts and the tests' gateway use.
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer } from "node:net";

  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: Record<string, unknown>): PDU;
  }

  export class Session extends EventEmitter {
    send(pdu: PDU): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: Record<string, unknown>, callback: (pdu: PDU) => void): boolean;
    bind_transmitter(options: Record<string, unknown>, callback: (pdu: PDU) => void): boolean;
    submit_sm(options: Record<string, unknown>, callback: (pdu: PDU) => void): boolean;
    deliver_sm(options: Record<string, unknown>, callback?: (pdu: PDU) => void): boolean;
    enquire_link(options?: Record<string, unknown>, callback?: (pdu: PDU) => void): boolean;
    unbind(options?: Record<string, unknown>, callback?: (pdu: PDU) => void): boolean;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function connect(
    options: { host: string; port: number; tls?: boolean; rejectUnauthorized?: boolean },
    listener?: () => void,
  ): Session;
  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;

  export const ESME_ROK: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RINVPASWD: number;
  export const ESME_RTHROTTLED: number;
  export const errors: Record<string, number>;
}
