import type { Patient } from '@odontia/shared/schemas/patients';
import { Grid3x3 } from 'lucide-react';
import { lazy, Suspense } from 'react';

/** The chart's code and texts load when its tab is opened, not with the medical history. */
const OdontogramTab = lazy(() =>
  import('./odontogram-tab')
    .then((module) => ({ Component: module.OdontogramTab }))
    .then(({ Component }) => ({ default: Component })),
);

function LazyOdontogramTab({ patient }: { patient: Patient }) {
  return (
    <Suspense
      fallback={
        <div className="text-center py-4" data-testid="tab-odontogram-loading">
          <span className="spinner-border text-primary" aria-hidden="true" />
        </div>
      }
    >
      <OdontogramTab patient={patient} />
    </Suspense>
  );
}

/** The medical history's "Odontograma" tab (`?tab=odontogram`), label `odontogram:tab`. */
export const odontogramTab = {
  key: 'odontogram',
  labelKey: 'odontogram:tab',
  icon: Grid3x3,
  Component: LazyOdontogramTab,
};
