/**
 * Failure counters in a sliding window, per process (ARCHITECTURE §8 allows it). A key is
 * blocked once it has `limit` failures within `windowMs`; it frees itself as they age out.
 */
export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  now?: () => number;
}

export class RateLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: RateLimiterOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the first of `keys` that is blocked frees up; 0 when none is. */
  retryAfterSeconds(keys: string[]): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key);
      if (recent.length >= this.limit) {
        const oldestThatMustExpire = recent[recent.length - this.limit] ?? this.now();
        wait = Math.max(wait, Math.ceil((oldestThatMustExpire + this.windowMs - this.now()) / 1000));
      }
    }
    return wait;
  }

  fail(keys: string[]): void {
    const at = this.now();
    for (const key of keys) {
      const recent = this.recent(key);
      recent.push(at);
      this.failures.set(key, recent);
    }
    if (this.failures.size > 50_000) this.sweep();
  }

  reset(): void {
    this.failures.clear();
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
