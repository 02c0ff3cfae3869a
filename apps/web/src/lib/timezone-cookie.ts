/** Spec §7: the server reads the browser's IANA time zone from this cookie (reports, reminders). */
export function writeTimezoneCookie(): void {
  let zone = 'UTC';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    // Very old engines: keep UTC.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: must be set synchronously before the first call; the Cookie Store API is async and not in every browser
  document.cookie = `timezone=${encodeURIComponent(zone)}; path=/; SameSite=Lax`;
}
