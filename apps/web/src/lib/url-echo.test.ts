import { describe, expect, it } from 'vitest';
import { UrlEcho } from './url-echo';

describe('UrlEcho', () => {
  it('takes a late echo of the input’s own write as its own, whatever was typed since', () => {
    const echo = new UrlEcho();
    echo.sent('g');
    // The user typed "go" before the URL's "g" came back: the box must keep "go".
    expect(echo.isEcho('g')).toBe(true);
    expect(echo.awaited).toEqual([]);
  });

  it('takes echoes of several writes in order, and a skipped one (superseded navigation) as done', () => {
    const echo = new UrlEcho();
    echo.sent('gon');
    echo.sent('gonza');
    echo.sent('gonzalez');
    expect(echo.isEcho('gonza')).toBe(true);
    expect(echo.awaited).toEqual(['gonzalez']);
    expect(echo.isEcho('gonzalez')).toBe(true);
    expect(echo.awaited).toEqual([]);
  });

  it('takes a value the input did not write (Back, Forward, a link) as not its own', () => {
    const echo = new UrlEcho();
    expect(echo.isEcho('')).toBe(false);
    echo.sent('ana');
    expect(echo.isEcho('pedro')).toBe(false);
    // That navigation replaced the write: its value, if it comes back later (Back), is foreign too.
    expect(echo.awaited).toEqual([]);
    expect(echo.isEcho('ana')).toBe(false);
  });

  it('takes the same value written twice as two echoes', () => {
    const echo = new UrlEcho();
    echo.sent('a');
    echo.sent('ab');
    echo.sent('a');
    expect(echo.isEcho('a')).toBe(true);
    expect(echo.isEcho('ab')).toBe(true);
    expect(echo.isEcho('a')).toBe(true);
    expect(echo.isEcho('a')).toBe(false);
  });
});
