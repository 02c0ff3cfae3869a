import { describe, expect, it } from 'vitest';
import { maxJsonDepth, nestsDeeperThan } from './json-depth.ts';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it('lets a body as deep as the limit through, and refuses one level more', () => {
    expect(nestsDeeperThan(nested(maxJsonDepth))).toBe(false);
    expect(nestsDeeperThan(nested(maxJsonDepth + 1))).toBe(true);
    expect(nestsDeeperThan(nested(20_000))).toBe(true);
    expect(nestsDeeperThan(`{"a":${'{"b":'.repeat(70)}1${'}'.repeat(70)}}`)).toBe(true);
  });

  it('counts only the brackets outside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ note: '['.repeat(500) }))).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ note: `"${'{'.repeat(500)}\\"` }))).toBe(false);
    expect(nestsDeeperThan(`["\\\\",${nested(maxJsonDepth)}]`)).toBe(true);
  });

  it('takes flat and wide bodies of any size', () => {
    expect(nestsDeeperThan(JSON.stringify({ rows: Array.from({ length: 10_000 }, (_, n) => ({ n })) }))).toBe(false);
    expect(nestsDeeperThan('')).toBe(false);
  });
});
