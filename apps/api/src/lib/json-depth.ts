/**
 * How deep a JSON body may nest its arrays and objects. Our contracts go a few levels down (a FHIR
 * bundle, the deepest, about a dozen); recursive code over a body (the safe parser's prototype check,
 * the idempotency hash) would exhaust the stack on thousands of levels and answer 500.
 */
export const maxJsonDepth = 64;

/** Whether the JSON text nests deeper than `limit` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, limit = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // a backslash escapes the next character, a quote too
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}
