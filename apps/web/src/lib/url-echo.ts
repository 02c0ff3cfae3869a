/**
 * An input whose value lives in the URL (a list's search, a filter's date) writes the URL as the
 * user types, and the URL's new value comes back to it one or more renders later: its own echo.
 * By then the user may have typed more, so the input must not take an echo as a new value; a
 * value someone else put there (Back, Forward, a link) it must show.
 *
 * `UrlEcho` remembers what the input wrote and the URL has not shown yet. `isEcho(value)` is asked
 * on every change of the URL's value: true when the value is one the input wrote (it and the
 * writes before it are done: navigations land in order, a superseded one never lands); false
 * when it is not, and then nothing written is awaited any more (that navigation replaced them).
 */
export class UrlEcho<T = string> {
  private pending: T[] = [];

  /** The input is writing `value` to the URL. */
  sent(value: T): void {
    this.pending.push(value);
  }

  /** The URL now holds `value`: true when it is the echo of a write of the input's own. */
  isEcho(value: T): boolean {
    const index = this.pending.indexOf(value);
    if (index === -1) {
      this.pending = [];
      return false;
    }
    this.pending = this.pending.slice(index + 1);
    return true;
  }

  /** Writes the URL has not shown yet (for tests and debugging). */
  get awaited(): readonly T[] {
    return this.pending;
  }
}
