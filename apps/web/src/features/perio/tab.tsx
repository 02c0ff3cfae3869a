import type { Patient } from '@odontia/shared/schemas/patients';
import { Activity } from 'lucide-react';
import { lazy, Suspense } from 'react';

/** The chart's code and texts load when its tab is opened, not with the medical history. */
const PerioTab = lazy(() => import('./perio-tab').then((module) => ({ default: module.PerioTab })));

function LazyPerioTab({ patient }: { patient: Patient }) {
  return (
    <Suspense
      fallback={
        <div className="text-center py-4" data-testid="tab-perio-loading">
          <span className="spinner-border text-primary" aria-hidden="true" />
        </div>
      }
    >
      <PerioTab patient={patient} />
    </Suspense>
  );
}

/** The medical history's "Periodontograma" tab (`?tab=perio`), beside the odontogram; label `perio:tab`. */
export const perioTab = {
  key: 'perio',
  labelKey: 'perio:tab',
  icon: Activity,
  Component: LazyPerioTab,
};
