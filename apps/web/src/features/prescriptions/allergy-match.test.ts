import { describe, expect, it } from 'vitest';
import { allergyTerms, matchingAllergy } from './allergy-match';

describe('allergy warning of a prescription line', () => {
  const terms = allergyTerms('Penicilina, látex y AINEs; Ibuprofeno.');

  it('splits the free text into terms and ignores short ones', () => {
    expect(terms).toEqual(['Penicilina', 'látex', 'AINEs', 'Ibuprofeno']);
    expect(allergyTerms('No')).toEqual([]);
    expect(allergyTerms(null)).toEqual([]);
  });

  it('matches a medicine naming an allergy, without accents or case', () => {
    expect(matchingAllergy('IBUPROFENO 400 mg comprimidos', terms)).toBe('Ibuprofeno');
    expect(matchingAllergy('Penicilina G benzatínica', terms)).toBe('Penicilina');
    expect(matchingAllergy('Guantes de latex', terms)).toBe('látex');
  });

  it('does not warn for an unrelated medicine or a blank line', () => {
    expect(matchingAllergy('Paracetamol 500 mg', terms)).toBeNull();
    expect(matchingAllergy('Amoxicilina 500 mg', terms)).toBeNull();
    expect(matchingAllergy('', terms)).toBeNull();
    expect(matchingAllergy('Ibuprofeno', [])).toBeNull();
  });
});
