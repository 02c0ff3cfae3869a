import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('blocks a key after the limit of failures and frees it when they age out', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 2; i++) limiter.fail(['ip:1']);
    expect(limiter.retryAfterSeconds(['ip:1'])).toBe(0);
    limiter.fail(['ip:1']);
    expect(limiter.retryAfterSeconds(['ip:1', 'email:x'])).toBe(60);
    now += 30_000;
    expect(limiter.retryAfterSeconds(['ip:1'])).toBe(30);
    now += 30_001;
    expect(limiter.retryAfterSeconds(['ip:1'])).toBe(0);
  });

  it('counts keys separately', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
    limiter.fail(['a']);
    expect(limiter.retryAfterSeconds(['b'])).toBe(0);
    expect(limiter.retryAfterSeconds(['a'])).toBeGreaterThan(0);
  });
});
