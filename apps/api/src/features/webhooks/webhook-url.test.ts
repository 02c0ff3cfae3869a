import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './webhook.job.ts';
import { isPrivateAddress, pinnedLookup, refusedUrl, resolveWebhookTarget } from './webhook-url.ts';

describe('webhook URLs (issue 42)', () => {
  it('knows loopback, private, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:192.168.1.1',
      '64:ff9b::10.0.0.1',
      '198.18.0.1',
      '224.0.0.1',
      'ff02::1',
      '::',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('accepts https to a public host; http and private hosts only with the setting', () => {
    const strict = { allowPrivate: false };
    const open = { allowPrivate: true };
    expect(refusedUrl('https://crm.example.com/hooks?x=1', strict)).toBeNull();
    expect(refusedUrl('http://crm.example.com/hooks', strict)).not.toBeNull();
    expect(refusedUrl('http://crm.example.com/hooks', open)).not.toBeNull();
    expect(refusedUrl('http://127.0.0.1:8080/hooks', strict)).not.toBeNull();
    expect(refusedUrl('http://127.0.0.1:8080/hooks', open)).toBeNull();
    expect(refusedUrl('https://printer.local/', strict)).not.toBeNull();
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'gopher://x',
      'https://a:b@example.com/',
      'nonsense',
    ])
      expect(refusedUrl(url, open), url).not.toBeNull();
  });

  it('resolves once: refuses when ANY answer is private, and pins the connection to the checked answers', async () => {
    const strict = { allowPrivate: false };
    const answering = (addresses: string[]) => async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const bad of ['::ffff:10.0.0.1', '169.254.169.254', 'fd00::1', '0.0.0.0', '127.0.0.1', 'fe80::1']) {
      const answer = await resolveWebhookTarget('https://hooks.example.com/x', strict, answering(['8.8.8.8', bad]));
      expect(answer, bad).toEqual({ refused: 'hooks.example.com resolves to a private address' });
    }
    expect(await resolveWebhookTarget('https://hooks.example.com/x', strict, answering([]))).toEqual({
      refused: 'hooks.example.com resolves to no address',
    });
    const ok = await resolveWebhookTarget('https://hooks.example.com/x', strict, answering(['8.8.8.8', '2001:db8::1']));
    if (!('target' in ok)) throw new Error('refused');
    const lookup = pinnedLookup(ok.target);
    const seen: unknown[] = [];
    lookup('hooks.example.com', {}, (_error, address, family) => seen.push([address, family]));
    lookup('hooks.example.com', { family: 6 }, (_error, address, family) => seen.push([address, family]));
    lookup('hooks.example.com', { all: true }, (_error, address) => seen.push(address));
    expect(seen).toEqual([
      ['8.8.8.8', 4],
      ['2001:db8::1', 6],
      [
        { address: '8.8.8.8', family: 4 },
        { address: '2001:db8::1', family: 6 },
      ],
    ]);
    // A literal address is not looked up at all.
    const literal = await resolveWebhookTarget('https://8.8.4.4/x', strict, async () => {
      throw new Error('looked up');
    });
    expect(literal).toEqual({ target: { hostname: '8.8.4.4', addresses: [{ address: '8.8.4.4', family: 4 }] } });
  });

  it('signs "<timestamp>.<body>" with HMAC-SHA256', () => {
    const expected = createHmac('sha256', 'whsec_x').update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook('whsec_x', '1700000000', '{"a":1}')).toBe(`v1=${expected}`);
    expect(signWebhook('whsec_y', '1700000000', '{"a":1}')).not.toBe(`v1=${expected}`);
  });
});
