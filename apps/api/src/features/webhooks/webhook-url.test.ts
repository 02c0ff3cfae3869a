import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './webhook.job.ts';
import { isPrivateAddress, refusedUrl } from './webhook-url.ts';

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

  it('signs "<timestamp>.<body>" with HMAC-SHA256', () => {
    const expected = createHmac('sha256', 'whsec_x').update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook('whsec_x', '1700000000', '{"a":1}')).toBe(`v1=${expected}`);
    expect(signWebhook('whsec_y', '1700000000', '{"a":1}')).not.toBe(`v1=${expected}`);
  });
});
