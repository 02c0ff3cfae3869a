import { describe, expect, it } from 'vitest';
import { allergyMatch, allergyTerms, familiesOfAllergy, familiesOfMedicine } from './allergies.ts';

describe('allergy warnings', () => {
  it('splits the free text into terms and ignores short ones', () => {
    expect(allergyTerms('Penicilina, látex y AINEs; Ibuprofeno.')).toEqual([
      'Penicilina',
      'látex',
      'AINEs',
      'Ibuprofeno',
    ]);
    expect(allergyTerms('No')).toEqual([]);
    expect(allergyTerms(null)).toEqual([]);
  });

  it('warns for a medicine that names the allergy itself, without accents or case', () => {
    const terms = allergyTerms('Penicilina, látex, Ibuprofeno');
    expect(allergyMatch('IBUPROFENO 400 mg comprimidos', terms)).toEqual({ kind: 'direct', allergy: 'Ibuprofeno' });
    expect(allergyMatch('Guantes de latex', terms)).toEqual({ kind: 'direct', allergy: 'látex' });
  });

  it('warns for a penicillin when the patient is allergic to penicillin (amoxicillin, ampicillin…)', () => {
    const terms = allergyTerms('Penicilina');
    for (const medicine of [
      'Amoxicilina 500 mg',
      'Amoxicilina + ácido clavulánico 875/125',
      'Ampicilina',
      'Amoxicillin',
    ]) {
      expect(allergyMatch(medicine, terms)).toEqual({ kind: 'family', allergy: 'Penicilina', family: 'penicillins' });
    }
  });

  it('warns of a possible cross-reaction between penicillins and cephalosporins, both ways', () => {
    expect(allergyMatch('Cefalexina 500 mg', allergyTerms('Amoxicilina'))).toEqual({
      kind: 'crossReaction',
      allergy: 'Amoxicilina',
      family: 'cephalosporins',
    });
    expect(allergyMatch('Amoxicilina 500 mg', allergyTerms('Cefalosporinas'))).toMatchObject({
      kind: 'crossReaction',
      family: 'penicillins',
    });
  });

  it('groups NSAIDs: an allergy to ibuprofen or to "AINE" warns for diclofenac and ketorolac', () => {
    expect(allergyMatch('Diclofenac sódico 75 mg', allergyTerms('Ibuprofeno'))).toMatchObject({
      kind: 'family',
      family: 'nsaids',
    });
    expect(allergyMatch('Ketorolac 10 mg', allergyTerms('AINE'))).toMatchObject({ kind: 'family', family: 'nsaids' });
    expect(allergyMatch('Paracetamol 500 mg', allergyTerms('AINE, ibuprofeno'))).toBeNull();
  });

  it('tells amide from ester local anaesthetics', () => {
    expect(familiesOfMedicine('Articaína 4% con epinefrina')).toEqual(['amideLocalAnaesthetics']);
    expect(familiesOfMedicine('Benzocaína gel 20%')).toEqual(['esterLocalAnaesthetics']);
    expect(allergyMatch('Mepivacaína 3%', allergyTerms('Lidocaína'))).toMatchObject({
      family: 'amideLocalAnaesthetics',
    });
    expect(allergyMatch('Mepivacaína 3%', allergyTerms('Benzocaína'))).toBeNull();
    expect(allergyMatch('Procaína', allergyTerms('anestésicos tipo éster'))).toMatchObject({ kind: 'family' });
  });

  it('does not invent families from unrelated words', () => {
    expect(familiesOfAllergy('Esteroides')).toEqual([]);
    expect(familiesOfAllergy('Látex')).toEqual([]);
    expect(allergyMatch('Clorhexidina 0,12%', allergyTerms('Penicilina, AINE, lidocaína'))).toBeNull();
    expect(allergyMatch('', allergyTerms('Penicilina'))).toBeNull();
  });
});
