import { can } from '@odontia/shared/permissions';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ClipboardList, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../session/session';
import { useCurrencyFormat } from '../commercial/money-format';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { usePatientPlans, usePlan } from './api';
import { draftOf, newAlternative, type PlanDraft } from './plan-draft';
import { PlanEditor } from './plan-editor';
import { PlanProgressBar, PlanStatusBadge, PlanView } from './plan-view';
import './plans.css';

/**
 * The medical history's "Plan de tratamiento" tab (`?tab=plans`): the patient's plans with their
 * totals and progress, the plan opened (its alternatives side by side, the sessions to book), and
 * the editor of a new or still open plan. Requests: the page of plans and the plan opened.
 */
export function PlansTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('plans');
  const money = useCurrencyFormat();
  const user = useSessionUser();
  const canWrite = useCanWriteClinical();
  const canBook = user ? can(user.level, 'appointments.write') : false;
  const plans = usePatientPlans(patient.id);
  const [openId, setOpenId] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string | null; draft: PlanDraft } | null>(null);
  const shownId = openId ?? plans.data?.data[0]?.id ?? null;
  const plan = usePlan(patient.id, shownId);

  const startNew = () =>
    setEditing({
      id: null,
      draft: {
        title: t('defaultTitle'),
        professionalId: user?.id ?? '',
        notes: '',
        version: null,
        alternatives: [newAlternative(t('alternativeLabel', { letter: 'A' }), t('phaseKinds.basic'))],
      },
    });

  return (
    <div data-testid="tab-plans" className="d-flex flex-column gap-3">
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto">
          {plans.data ? t('count', { count: plans.data.total }) : null}
        </span>
        {canWrite && !editing ? (
          <button type="button" className="btn btn-primary btn-sm" data-testid="plan-new" onClick={startNew}>
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('actions.new')}
          </button>
        ) : null}
      </div>
      {editing ? (
        <PlanEditor
          key={editing.id ?? 'new'}
          patientId={patient.id}
          planId={editing.id}
          initial={editing.draft}
          onDone={(id) => {
            setEditing(null);
            if (id) setOpenId(id);
          }}
        />
      ) : null}
      {plans.data && plans.data.data.length === 0 && !editing ? (
        <p className="text-body-secondary" data-testid="plans-empty">
          <ClipboardList size={16} aria-hidden="true" className="me-1" />
          {t('empty')}
        </p>
      ) : null}
      {plans.data && plans.data.data.length > 0 && !editing ? (
        <ul className="list-group" aria-label={t('listLabel')}>
          {plans.data.data.map((summary) => (
            <li key={summary.id} className={`list-group-item${summary.id === shownId ? ' active-plan' : ''}`}>
              <button
                type="button"
                className="btn btn-link p-0 text-start w-100 text-decoration-none"
                data-testid="plan-row"
                aria-current={summary.id === shownId ? 'true' : undefined}
                onClick={() => setOpenId(summary.id)}
              >
                <span className="d-flex flex-wrap align-items-center gap-2 w-100 text-start">
                  <span className="fw-semibold me-auto">{summary.title}</span>
                  <PlanStatusBadge status={summary.status} />
                  <span className="text-body-secondary small text-nowrap">
                    {summary.alternatives
                      .map((alternative) => `${alternative.label}: ${money(alternative.total)}`)
                      .join(' · ')}
                  </span>
                </span>
              </button>
              {summary.status === 'accepted' || summary.status === 'completed' ? (
                <div className="mt-2">
                  <PlanProgressBar progress={summary.progress} testId="plan-row-progress" />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {plan.data && !editing ? (
        <PlanView
          plan={plan.data}
          canWrite={canWrite}
          canBook={canBook}
          onEdit={() => plan.data && setEditing({ id: plan.data.id, draft: draftOf(plan.data) })}
        />
      ) : null}
    </div>
  );
}
