import type { Patient } from '@odontia/shared/schemas/patients';
import { ClipboardCheck } from 'lucide-react';
import { lazy, Suspense } from 'react';

/** The plan editor's code loads when its tab is opened, not with the medical history. */
const PlansTab = lazy(() => import('./plans-tab').then((module) => ({ default: module.PlansTab })));

function LazyPlansTab({ patient }: { patient: Patient }) {
  return (
    <Suspense
      fallback={
        <div className="text-center py-4" data-testid="tab-plans-loading">
          <span className="spinner-border text-primary" aria-hidden="true" />
        </div>
      }
    >
      <PlansTab patient={patient} />
    </Suspense>
  );
}

/** The medical history's "Plan de tratamiento" tab (`?tab=plans`, issue 41), label `plans:tab`. */
export const plansTab = { key: 'plans', labelKey: 'plans:tab', icon: ClipboardCheck, Component: LazyPlansTab };
