import type { LookupFunction } from 'node:net';

/**
 * What the webhook tests that call `postWebhook` directly share: a delivery ready to send, and a
 * DNS stub that counts its calls.
 */

/** A delivery of one event to `url`, signed with a test secret. */
export const preparedDelivery = (url: string) => ({
  kind: 'send' as const,
  deliveryId: 'd1',
  subscriptionId: 's1',
  url,
  secret: 'whsec_test',
  eventId: 'e1',
  body: '{"id":"e1"}',
});

/** A DNS stub: each call answers the next address in `answers` (the last one once used up). */
export function dnsStub(answers: string[]): LookupFunction & { calls: number } {
  const stub = ((_host, options, callback) => {
    const address = answers[Math.min(stub.calls, answers.length - 1)] ?? '127.0.0.1';
    stub.calls += 1;
    const family = address.includes(':') ? 6 : 4;
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction & { calls: number };
  stub.calls = 0;
  return stub;
}
