// An API under test whose text messages go to a real SMPP gateway on 127.0.0.1 (smpp.ts), sent and
// receipted as in production: what the SMS, phone sign-up and front desk tests start before their
// tests (`({ api, gateway } = await startApiWithGateway())`) and close after.
import { recordReceipt } from "../sms/outbox.ts";
import { smppSender } from "../sms/smpp.ts";
import { startApi, type TestApi } from "./harness.ts";
import { type SmppServer, startSmppServer } from "./smpp.ts";

export async function startApiWithGateway(): Promise<{ api: TestApi; gateway: SmppServer }> {
  const gateway = await startSmppServer();
  const api: TestApi = await startApi({
    sms: smppSender({
      url: gateway.url(),
      from: "HealthBook",
      // Receipts come once the API is up.
      onReceipt: (receipt) => recordReceipt(api.db, receipt),
      rebindMs: 100,
    }),
  });
  return { api, gateway };
}
