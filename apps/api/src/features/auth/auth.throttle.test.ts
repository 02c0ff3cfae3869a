import { describe, expect, it } from 'vitest';
import { throttleKeepMs } from '../../db/throttle-counters.ts';
import { addressKey, throttleLimits } from './auth.throttle.ts';

describe('addressKey', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    expect(addressKey('2001:db8:5:6::1')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:0db8:0005:0006:ffff:0:0:1')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('throttleLimits', () => {
  it('fit in the hour the shared counters keep (a longer window would forget counts)', () => {
    for (const limit of [throttleLimits.pair, throttleLimits.address, throttleLimits.email]) {
      expect(limit.windowMs).toBeLessThanOrEqual(throttleKeepMs);
    }
    expect(Math.max(throttleLimits.pair.windowMs, throttleLimits.address.windowMs, throttleLimits.email.windowMs)).toBe(
      throttleKeepMs,
    );
  });
});
