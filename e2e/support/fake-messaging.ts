import { type APIRequestContext, expect } from '@playwright/test';
import { rootServer } from './servers';

/*
 * The root server's fake SMS and WhatsApp provider (issue 38): started by the server with the demo
 * (DEMO_MESSAGING_PORT in playwright.config.ts); it records what the clinic sent and posts a
 * patient's reply to the server's webhook, signed as Meta would.
 */

const fakeUrl = `http://127.0.0.1:${rootServer.port + 100}`;
/** The demo clinic's WhatsApp phone number id (apps/api/src/seed/demo-messaging.ts). */
export const demoWhatsappNumberId = '105000000000001';

export interface FakeSent {
  channel: 'sms' | 'whatsapp';
  to: string;
  body: string | null;
  template: { name: string; parameters: string[] } | null;
}

/** Waits until the fake received a message to `to` (digits, as WhatsApp writes numbers) that `matches`. */
export async function sentTo(
  request: APIRequestContext,
  to: string,
  matches: (message: FakeSent) => boolean = () => true,
  timeout = 30_000,
): Promise<FakeSent> {
  let found: FakeSent | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`${fakeUrl}/_fake/messages`);
        const { messages } = (await response.json()) as { messages: FakeSent[] };
        found = messages.find((message) => message.to.replace(/\D/g, '') === to && matches(message));
        return Boolean(found);
      },
      { timeout, message: `a message to ${to}` },
    )
    .toBe(true);
  return found as FakeSent;
}

/** The patient answers on WhatsApp; answers the HTTP status the server gave the webhook. */
export async function whatsappReply(request: APIRequestContext, from: string, body: string): Promise<number> {
  const response = await request.post(`${fakeUrl}/_fake/whatsapp/reply`, {
    data: { phoneNumberId: demoWhatsappNumberId, from, body },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { status: number }).status;
}
