import { type AllergyMatch, allergyMatch, allergyTerms } from '@odontia/shared/allergies';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { usePatient } from './api';

/**
 * The allergy check of what a professional prescribes or uses for a patient (prescription lines,
 * an attendance's medicines): the patient's recorded allergies against the medicine's name, its
 * drug family and the families that cross-react (packages/shared/src/allergies.ts).
 */
export function useAllergyCheck(patientId: string): (medicine: string) => AllergyMatch | null {
  const allergies = usePatient(patientId).data?.allergies;
  const terms = useMemo(() => allergyTerms(allergies), [allergies]);
  return useMemo(() => (medicine: string) => allergyMatch(medicine, terms), [terms]);
}

/** The sentence that explains a match: the allergy, and the family when that is the reason. */
export function useAllergyText(): (match: AllergyMatch, length?: 'long' | 'short') => string {
  const { t } = useTranslation('patients');
  return (match, length = 'long') => {
    const family = 'family' in match ? t(`allergy.families.${match.family}`) : '';
    return t(`allergy.${length}.${match.kind}`, { allergy: match.allergy, family });
  };
}

/** The red line under a medicine the patient may be allergic to. */
export function AllergyWarning({ match, testId = 'allergy-warning' }: { match: AllergyMatch | null; testId?: string }) {
  const text = useAllergyText();
  if (!match) return null;
  return (
    <div className="alert alert-danger py-1 px-2 small mt-2 mb-0" role="alert" data-testid={testId}>
      {text(match)}
    </div>
  );
}
