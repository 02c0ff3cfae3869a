/**
 * Allergy warnings for what a dentist prescribes or uses (issue 14). A warning for the
 * professional, never a block: a patient's allergies are free text ("Penicilina, látex"), and a
 * medicine is named by text ("Amoxicilina 500 mg") or picked from the catalogue. A medicine
 * warns when
 * - it names an allergy term itself ("Ibuprofeno" for an allergy to ibuprofen): `direct`;
 * - it belongs to the same drug family as the allergy ("Amoxicilina" for an allergy to
 *   penicillin, "Diclofenac" for one to ibuprofen or to "AINEs"): `family`;
 * - it belongs to a family known to cross-react with the allergy's (a cephalosporin for an
 *   allergy to penicillins, and the reverse): `crossReaction`.
 *
 * The families are the ones a dental clinic prescribes or injects, with the names used in
 * Spanish, English, French and Portuguese (accents and case do not matter; a word matches by its
 * beginning, so "amoxicilina", "amoxicillin" and "amoxicilline" are one stem). It is a small,
 * documented table (docs/decisions.md, "Allergy warnings"), not a drug database: a medicine it
 * does not know still warns by its own name.
 */

export const drugFamilies = [
  'penicillins',
  'cephalosporins',
  'nsaids',
  'amideLocalAnaesthetics',
  'esterLocalAnaesthetics',
] as const;
export type DrugFamily = (typeof drugFamilies)[number];

interface FamilyEntry {
  /** Words that name the family itself in a patient's allergies ("penicilina", "AINE"). */
  names: string[];
  /** Stems of its members' active principles (the beginning of the word, without accents). */
  members: string[];
  /** Families whose members may cross-react. */
  crossReacts: DrugFamily[];
}

export const drugFamilyTable: Record<DrugFamily, FamilyEntry> = {
  penicillins: {
    names: ['penicilin', 'penicillin', 'penicilline', 'betalactam', 'beta-lactam'],
    members: [
      'penicilin',
      'penicillin',
      'bencilpenicilin',
      'benzylpenicillin',
      'fenoximetilpenicilin',
      'phenoxymethylpenicillin',
      'amoxicil',
      'amoxycil',
      'ampicil',
      'sultamicil',
      'dicloxacil',
      'flucloxacil',
      'cloxacil',
      'oxacil',
      'piperacil',
      'benzatin',
    ],
    crossReacts: ['cephalosporins'],
  },
  cephalosporins: {
    names: ['cefalospor', 'cephalospor', 'cephalosporine', 'céphalospor'],
    members: [
      'cefalex',
      'cephalex',
      'cefadrox',
      'cefurox',
      'cefazol',
      'ceftriax',
      'cefix',
      'cefaclor',
      'cefdinir',
      'cefepim',
      'cefpodox',
      'cefprozil',
      'cefotax',
      'ceftazid',
    ],
    crossReacts: ['penicillins'],
  },
  nsaids: {
    names: [
      'aine',
      'aines',
      'nsaid',
      'nsaids',
      'ains',
      'antiinflamatorio no esteroideo',
      'antiinflamatorios no esteroideos',
      'anti-inflammatoire non stéroïdien',
      'anti-inflamatório não esteroide',
    ],
    members: [
      'ibuprof',
      'dexibuprof',
      'diclofenac',
      'ketorolac',
      'cetorolac',
      'naproxen',
      'ketoprofen',
      'cetoprofen',
      'dexketoprofen',
      'dexcetoprofen',
      'meloxicam',
      'piroxicam',
      'nimesulid',
      'aspirin',
      'acetilsalicil',
      'acetylsalicyl',
      'acido acetilsalicil',
      'celecoxib',
      'etoricoxib',
      'indometacin',
      'indomethacin',
      'aceclofenac',
      'flurbiprofen',
    ],
    crossReacts: [],
  },
  amideLocalAnaesthetics: {
    names: ['anestesico tipo amida', 'anestesicos tipo amida', 'amide anaesthetic', 'amide anesthetic', 'amida'],
    members: [
      'lidocain',
      'lignocain',
      'xilocain',
      'xylocain',
      'mepivacain',
      'articain',
      'carticain',
      'prilocain',
      'bupivacain',
      'levobupivacain',
      'ropivacain',
    ],
    crossReacts: [],
  },
  esterLocalAnaesthetics: {
    names: ['anestesico tipo ester', 'anestesicos tipo ester', 'ester anaesthetic', 'ester anesthetic', 'ester'],
    members: ['benzocain', 'procain', 'novocain', 'tetracain', 'ametocain', 'cloroprocain', 'chloroprocain'],
    crossReacts: [],
  },
};

/** Lowercase, without accents: "Látex" → "latex". */
export function plainText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

const wordsOf = (text: string) =>
  plainText(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The allergy terms of the patient's free text, as written (for the message). Short ones would match anything. */
export function allergyTerms(allergies: string | null | undefined): string[] {
  return (allergies ?? '')
    .split(/[,;\n/]|\s+y\s+|\s+e\s+|\s+and\s+|\s+et\s+/i)
    .map((term) => term.trim().replace(/[.()]+$/g, ''))
    .filter((term) => plainText(term).replace(/[^a-z0-9]/g, '').length >= 4);
}

/** Whether a text mentions a stem: as the beginning of one of its words, or as a phrase. */
function mentions(text: string, stem: string): boolean {
  const plain = plainText(stem);
  if (plain.includes(' ') || plain.includes('-')) return plainText(text).includes(plain);
  return wordsOf(text).some((word) => word.startsWith(plain));
}

/** The families a medicine belongs to, by its active principle's name. */
export function familiesOfMedicine(medicine: string): DrugFamily[] {
  return drugFamilies.filter((family) => drugFamilyTable[family].members.some((stem) => mentions(medicine, stem)));
}

/** The families an allergy term names, by the family's name or by one of its members. */
export function familiesOfAllergy(term: string): DrugFamily[] {
  return drugFamilies.filter((family) => {
    const entry = drugFamilyTable[family];
    // The family's own name must be a whole word (so "ester" in "Esteroides" names nothing).
    const named = entry.names.some((name) => {
      const plain = plainText(name);
      return plain.includes(' ') || plain.includes('-')
        ? plainText(term).includes(plain)
        : wordsOf(term).some((word) => word === plain || (plain.length >= 6 && word.startsWith(plain)));
    });
    return named || entry.members.some((stem) => mentions(term, stem));
  });
}

function namesTheTerm(medicine: string, term: string): boolean {
  const words = wordsOf(medicine).filter((word) => word.length >= 4);
  const termWords = wordsOf(term).filter((word) => word.length >= 4);
  return termWords.some((termWord) => words.some((word) => word.startsWith(termWord) || termWord.startsWith(word)));
}

export type AllergyMatch =
  | { kind: 'direct'; allergy: string }
  | { kind: 'family'; allergy: string; family: DrugFamily }
  | { kind: 'crossReaction'; allergy: string; family: DrugFamily };

/**
 * Why a medicine may harm a patient with these allergy terms, or null: its own name first, then
 * the same family, then a family that cross-reacts.
 */
export function allergyMatch(medicine: string, terms: string[]): AllergyMatch | null {
  if (!medicine.trim() || terms.length === 0) return null;
  for (const term of terms) if (namesTheTerm(medicine, term)) return { kind: 'direct', allergy: term };
  const medicineFamilies = familiesOfMedicine(medicine);
  if (medicineFamilies.length === 0) return null;
  for (const term of terms) {
    const family = familiesOfAllergy(term).find((candidate) => medicineFamilies.includes(candidate));
    if (family) return { kind: 'family', allergy: term, family };
  }
  for (const term of terms) {
    for (const allergyFamily of familiesOfAllergy(term)) {
      const family = medicineFamilies.find((candidate) =>
        drugFamilyTable[allergyFamily].crossReacts.includes(candidate),
      );
      if (family) return { kind: 'crossReaction', allergy: term, family };
    }
  }
  return null;
}
