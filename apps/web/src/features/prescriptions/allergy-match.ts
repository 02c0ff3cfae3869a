/**
 * Whether a prescribed medicine names something the patient is recorded as allergic to. A
 * warning for the prescriber, not a block: the allergies are free text ("Penicilina, látex"), so
 * each listed term is compared accent- and case-free with the medicine's words. Terms shorter
 * than four letters are ignored (they would match anything).
 */

const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** The allergy terms of the patient's free text, as written (for the message). */
export function allergyTerms(allergies: string | null | undefined): string[] {
  return (allergies ?? '')
    .split(/[,;\n/]|\s+y\s+|\s+e\s+|\s+and\s+|\s+et\s+/i)
    .map((term) => term.trim().replace(/[.()]+$/g, ''))
    .filter((term) => plain(term).replace(/[^a-z0-9]/g, '').length >= 4);
}

/** The first allergy term the medicine matches, or null. */
export function matchingAllergy(medicine: string, terms: string[]): string | null {
  const words = plain(medicine)
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 4);
  if (words.length === 0) return null;
  for (const term of terms) {
    const termWords = plain(term)
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 4);
    if (termWords.some((termWord) => words.some((word) => word.startsWith(termWord) || termWord.startsWith(word)))) {
      return term;
    }
  }
  return null;
}
