/**
 * Whether an error means the database could not be reached or dropped the connection (a restart,
 * a failover, a terminated backend), rather than refused what was asked. Such a request answers
 * 503 service_unavailable (with Retry-After): the client may try again, and nothing of it was
 * kept — its transaction never committed. The error's causes are followed (drizzle wraps the
 * driver's error).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (networkCodes.has(code) || unavailableStates.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (typeof message === 'string' && droppedMessages.some((pattern) => pattern.test(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The socket to the server failed. */
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server going away or not taking connections (class 08, connection exception, is
 * matched by its prefix): 57P01 admin_shutdown (a fast shutdown or pg_terminate_backend), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up), 53300 too_many_connections.
 */
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres and PGlite say it in words, without a code. */
const droppedMessages = [
  /^Connection terminated/,
  /Client has encountered a connection error and is not queryable/,
  /^timeout expired$/,
  /^timeout exceeded when trying to connect$/,
  /PGlite is closed/,
];

/**
 * SQLSTATEs of a transaction that lost to another and was rolled back whole: 40P01
 * deadlock_detected, 40001 serialization_failure, 55P03 lock_not_available. The request may be
 * sent again as it was (issue 35, item 5: answered 503 with Retry-After, never a 500).
 */
const conflictStates = new Set(['40P01', '40001', '55P03']);

export function isTransactionConflict(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && conflictStates.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
