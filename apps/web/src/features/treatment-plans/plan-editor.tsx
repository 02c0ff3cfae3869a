import { fdiTeeth } from '@odontia/shared/enums';
import { planPhaseKinds, planZones } from '@odontia/shared/treatment-plans';
import { Plus, Save, Sparkles, Trash2, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { type FieldCodes, fieldCodesOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess, toastSuccessText } from '../../lib/api-toast';
import { useTreatments } from '../agenda/api';
import { useCurrencyFormat } from '../commercial/money-format';
import { useProfessionals } from '../users/professionals';
import { usePlanSuggestions, useSavePlan } from './api';
import {
  alternativeTotal,
  bodyOf,
  type DraftAlternative,
  type DraftItem,
  type DraftPhase,
  draftAmount,
  draftParts,
  newAlternative,
  newItem,
  newPhase,
  newSession,
  type PlanDraft,
  withSuggestions,
} from './plan-draft';

const teeth = [...fdiTeeth].sort((a, b) => a - b);

/**
 * The plan editor (draft or presented plans): title, professional, alternatives side by side with
 * their totals, phases, items per tooth or zone with a treatment of the price list (its price
 * proposed, editable, typed as the clinic writes numbers), and the sessions that split each item.
 * "Desde el odontograma" adds the chart's findings that need treatment.
 */
export function PlanEditor({
  patientId,
  planId,
  initial,
  onDone,
}: {
  patientId: string;
  planId: string | null;
  initial: PlanDraft;
  onDone: (id: string | null) => void;
}) {
  const { t } = useTranslation('plans');
  const id = useId();
  const money = useCurrencyFormat();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldCodes>({});
  const [asked, setAsked] = useState<number | null>(null);
  const professionals = useProfessionals();
  const treatments = useTreatments();
  const suggestions = usePlanSuggestions(patientId, asked !== null);
  const save = useSavePlan(patientId, planId);

  const setAlternative = (index: number, change: (alternative: DraftAlternative) => DraftAlternative) =>
    setDraft((current) => ({
      ...current,
      alternatives: current.alternatives.map((alternative, i) => (i === index ? change(alternative) : alternative)),
    }));
  const setPhase = (a: number, p: number, change: (phase: DraftPhase) => DraftPhase) =>
    setAlternative(a, (alternative) => ({
      ...alternative,
      phases: alternative.phases.map((phase, i) => (i === p ? change(phase) : phase)),
    }));
  const setItem = (a: number, p: number, i: number, change: Partial<DraftItem>) =>
    setPhase(a, p, (phase) => ({
      ...phase,
      items: phase.items.map((item, index) => (index === i ? { ...item, ...change } : item)),
    }));

  // The findings arrive: into the alternative that asked for them.
  useEffect(() => {
    if (asked === null || !suggestions.data || suggestions.isFetching) return;
    const found = suggestions.data;
    setDraft((current) => ({
      ...current,
      alternatives: current.alternatives.map((alternative, index) =>
        index === asked ? withSuggestions(alternative, found, (kind) => t(`phaseKinds.${kind}`)) : alternative,
      ),
    }));
    setAsked(null);
    if (found.length === 0) toastSuccessText(t('noFindings'));
  }, [asked, suggestions.data, suggestions.isFetching, t]);

  const error = (path: string) => errors[path];
  const invalid = (path: string) => (errors[path] ? ' is-invalid' : '');

  const submit = async () => {
    setErrors({});
    try {
      const answer = await save.mutateAsync(bodyOf(draft));
      if (answer.code) toastSuccess(answer.code);
      onDone(answer.data.id);
    } catch (failure) {
      const fields = fieldCodesOf(failure);
      if (fields) setErrors(fields);
      else toastApiError(failure);
    }
  };

  return (
    <form
      className="plan-editor d-flex flex-column gap-3"
      data-testid="plan-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <div className="row g-2">
        <div className="col-12 col-md-6">
          <label className="form-label" htmlFor={`${id}-title`}>
            {t('fields.title')}
          </label>
          <input
            id={`${id}-title`}
            className={`form-control${invalid('title')}`}
            value={draft.title}
            data-testid="plan-title"
            onChange={(event) => setDraft({ ...draft, title: event.target.value })}
          />
          <FieldFeedback id={`${id}-title-error`} message={fieldCodeText(error('title'))} />
        </div>
        <div className="col-12 col-md-6">
          <label className="form-label" htmlFor={`${id}-professional`}>
            {t('fields.professional')}
          </label>
          <select
            id={`${id}-professional`}
            className={`form-select${invalid('professionalId')}`}
            value={draft.professionalId}
            onChange={(event) => setDraft({ ...draft, professionalId: event.target.value })}
          >
            {(professionals.data ?? []).map((professional) => (
              <option key={professional.id} value={professional.id}>
                {professional.completeName}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row row-cols-1 row-cols-xl-2 g-3">
        {draft.alternatives.map((alternative, a) => (
          <div className="col" key={alternative.key}>
            <section className="card h-100" data-testid="plan-alternative-editor" aria-label={alternative.label}>
              <div className="card-header d-flex flex-wrap align-items-center gap-2">
                <label className="visually-hidden" htmlFor={`${id}-alt-${a}`}>
                  {t('fields.alternative')}
                </label>
                <input
                  id={`${id}-alt-${a}`}
                  className={`form-control form-control-sm plan-alt-label${invalid(`alternatives.${a}.label`)}`}
                  value={alternative.label}
                  onChange={(event) => setAlternative(a, (current) => ({ ...current, label: event.target.value }))}
                />
                <span className="ms-auto fw-semibold text-nowrap" data-testid="plan-alternative-total">
                  {money(alternativeTotal(alternative))}
                </span>
                {draft.alternatives.length > 1 ? (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={t('actions.removeAlternative', { label: alternative.label })}
                    onClick={() =>
                      setDraft({ ...draft, alternatives: draft.alternatives.filter((_, index) => index !== a) })
                    }
                  >
                    <Trash2 size={14} aria-hidden="true" />
                  </button>
                ) : null}
              </div>
              <div className="card-body d-flex flex-column gap-3">
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary align-self-start"
                  data-testid="plan-from-odontogram"
                  disabled={asked !== null}
                  onClick={() => {
                    if (suggestions.data) void suggestions.refetch();
                    setAsked(a);
                  }}
                >
                  <Sparkles size={14} aria-hidden="true" className="me-1" />
                  {t('actions.fromOdontogram')}
                </button>
                {alternative.phases.map((phase, p) => (
                  <fieldset key={phase.key} className="plan-phase border rounded p-2" data-testid="plan-phase-editor">
                    <legend className="visually-hidden">{phase.name}</legend>
                    <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
                      <label className="visually-hidden" htmlFor={`${id}-kind-${a}-${p}`}>
                        {t('fields.phaseKind')}
                      </label>
                      <select
                        id={`${id}-kind-${a}-${p}`}
                        className="form-select form-select-sm w-auto"
                        value={phase.kind}
                        onChange={(event) => {
                          const kind = event.target.value as DraftPhase['kind'];
                          setPhase(a, p, (current) => ({
                            ...current,
                            kind,
                            name:
                              current.name === t(`phaseKinds.${current.kind}`) ? t(`phaseKinds.${kind}`) : current.name,
                          }));
                        }}
                      >
                        {planPhaseKinds.map((kind) => (
                          <option key={kind} value={kind}>
                            {t(`phaseKinds.${kind}`)}
                          </option>
                        ))}
                      </select>
                      <label className="visually-hidden" htmlFor={`${id}-phase-${a}-${p}`}>
                        {t('fields.phaseName')}
                      </label>
                      <input
                        id={`${id}-phase-${a}-${p}`}
                        className={`form-control form-control-sm flex-grow-1 plan-phase-name${invalid(`alternatives.${a}.phases.${p}.name`)}`}
                        value={phase.name}
                        onChange={(event) => setPhase(a, p, (current) => ({ ...current, name: event.target.value }))}
                      />
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-danger"
                        aria-label={t('actions.removePhase', { name: phase.name })}
                        onClick={() =>
                          setAlternative(a, (current) => ({
                            ...current,
                            phases: current.phases.filter((_, index) => index !== p),
                          }))
                        }
                      >
                        <Trash2 size={14} aria-hidden="true" />
                      </button>
                    </div>
                    {phase.items.map((item, i) => {
                      const path = `alternatives.${a}.phases.${p}.items.${i}`;
                      const amount = draftAmount(item);
                      const parts = draftParts(item);
                      return (
                        <div key={item.key} className="plan-item border-top pt-2 mt-2" data-testid="plan-item-editor">
                          <div className="d-flex flex-wrap gap-2 align-items-end">
                            <div className="plan-field-sm">
                              <label className="form-label small mb-0" htmlFor={`${id}-${item.key}-tooth`}>
                                {t('fields.tooth')}
                              </label>
                              <select
                                id={`${id}-${item.key}-tooth`}
                                className={`form-select form-select-sm${invalid(`${path}.tooth`)}`}
                                value={item.tooth}
                                data-testid="plan-item-tooth"
                                onChange={(event) => setItem(a, p, i, { tooth: event.target.value })}
                              >
                                <option value="">—</option>
                                {teeth.map((tooth) => (
                                  <option key={tooth} value={tooth}>
                                    {tooth}
                                  </option>
                                ))}
                              </select>
                            </div>
                            <div className="plan-field-sm">
                              <label className="form-label small mb-0" htmlFor={`${id}-${item.key}-zone`}>
                                {t('fields.zone')}
                              </label>
                              <select
                                id={`${id}-${item.key}-zone`}
                                className={`form-select form-select-sm${invalid(`${path}.zone`)}`}
                                value={item.zone}
                                onChange={(event) => setItem(a, p, i, { zone: event.target.value })}
                              >
                                <option value="">—</option>
                                {planZones.map((zone) => (
                                  <option key={zone} value={zone}>
                                    {t(`zones.${zone}`)}
                                  </option>
                                ))}
                              </select>
                            </div>
                            <div className="flex-grow-1 plan-field-treatment">
                              <label className="form-label small mb-0" htmlFor={`${id}-${item.key}-treatment`}>
                                {t('fields.treatment')}
                              </label>
                              <select
                                id={`${id}-${item.key}-treatment`}
                                className={`form-select form-select-sm${invalid(`${path}.treatmentId`)}`}
                                value={item.treatmentId}
                                data-testid="plan-item-treatment"
                                onChange={(event) => {
                                  const treatment = (treatments.data ?? []).find(
                                    (row) => row.id === event.target.value,
                                  );
                                  setItem(a, p, i, {
                                    treatmentId: event.target.value,
                                    ...(treatment ? { unitPrice: treatment.price } : {}),
                                  });
                                }}
                              >
                                <option value="">{t('fields.chooseTreatment')}</option>
                                {(treatments.data ?? []).map((treatment) => (
                                  <option key={treatment.id} value={treatment.id}>
                                    {treatment.code ? `${treatment.code} · ${treatment.name}` : treatment.name}
                                  </option>
                                ))}
                              </select>
                              <FieldFeedback
                                id={`${id}-${item.key}-treatment-error`}
                                message={fieldCodeText(error(`${path}.treatmentId`))}
                              />
                            </div>
                          </div>
                          <div className="d-flex flex-wrap gap-2 align-items-end mt-1">
                            <div className="plan-field-money">
                              <label className="form-label small mb-0" htmlFor={`${id}-${item.key}-price`}>
                                {t('fields.unitPrice')}
                              </label>
                              <input
                                id={`${id}-${item.key}-price`}
                                className={`form-control form-control-sm text-end${invalid(`${path}.unitPrice`)}`}
                                inputMode="decimal"
                                value={item.unitPrice}
                                data-testid="plan-item-price"
                                aria-describedby={
                                  error(`${path}.unitPrice`) ? `${id}-${item.key}-price-error` : undefined
                                }
                                onChange={(event) => setItem(a, p, i, { unitPrice: event.target.value })}
                              />
                            </div>
                            <div className="plan-field-xs">
                              <label className="form-label small mb-0" htmlFor={`${id}-${item.key}-qty`}>
                                {t('fields.quantity')}
                              </label>
                              <input
                                id={`${id}-${item.key}-qty`}
                                className={`form-control form-control-sm text-end${invalid(`${path}.quantity`)}`}
                                inputMode="numeric"
                                value={item.quantity}
                                onChange={(event) => setItem(a, p, i, { quantity: event.target.value })}
                              />
                            </div>
                            <div className="plan-field-xs">
                              <label className="form-label small mb-0" htmlFor={`${id}-${item.key}-discount`}>
                                {t('fields.discount')}
                              </label>
                              <input
                                id={`${id}-${item.key}-discount`}
                                className={`form-control form-control-sm text-end${invalid(`${path}.discountRate`)}`}
                                inputMode="decimal"
                                value={item.discount}
                                onChange={(event) => setItem(a, p, i, { discount: event.target.value })}
                              />
                            </div>
                            <span className="ms-auto fw-semibold text-nowrap" data-testid="plan-item-amount">
                              {amount ? money(amount) : '—'}
                            </span>
                            <button
                              type="button"
                              className="btn btn-sm btn-outline-danger"
                              aria-label={t('actions.removeItem')}
                              onClick={() =>
                                setPhase(a, p, (current) => ({
                                  ...current,
                                  items: current.items.filter((_, index) => index !== i),
                                }))
                              }
                            >
                              <X size={14} aria-hidden="true" />
                            </button>
                          </div>
                          <FieldFeedback
                            id={`${id}-${item.key}-price-error`}
                            message={fieldCodeText(error(`${path}.unitPrice`))}
                          />
                          <div className="plan-sessions mt-1">
                            {item.sessions.map((session, s) => (
                              <div key={session.key} className="d-flex flex-wrap gap-2 align-items-center mt-1">
                                <label className="visually-hidden" htmlFor={`${id}-${session.key}-desc`}>
                                  {t('fields.sessionDescription', { number: s + 1 })}
                                </label>
                                <input
                                  id={`${id}-${session.key}-desc`}
                                  className="form-control form-control-sm flex-grow-1 plan-session-desc"
                                  placeholder={t('fields.sessionPlaceholder', { number: s + 1 })}
                                  value={session.description}
                                  onChange={(event) =>
                                    setItem(a, p, i, {
                                      sessions: item.sessions.map((row, index) =>
                                        index === s ? { ...row, description: event.target.value } : row,
                                      ),
                                    })
                                  }
                                />
                                <label className="visually-hidden" htmlFor={`${id}-${session.key}-share`}>
                                  {t('fields.share', { number: s + 1 })}
                                </label>
                                <div className="input-group input-group-sm plan-field-share">
                                  <input
                                    id={`${id}-${session.key}-share`}
                                    className={`form-control text-end${invalid(`${path}.sessions`)}`}
                                    inputMode="decimal"
                                    value={session.share}
                                    data-testid="plan-session-share"
                                    onChange={(event) =>
                                      setItem(a, p, i, {
                                        sessions: item.sessions.map((row, index) =>
                                          index === s ? { ...row, share: event.target.value } : row,
                                        ),
                                      })
                                    }
                                  />
                                  <span className="input-group-text">%</span>
                                </div>
                                <span className="text-body-secondary small text-nowrap plan-session-part">
                                  {parts ? money(parts[s]) : '—'}
                                </span>
                                {item.sessions.length > 1 ? (
                                  <button
                                    type="button"
                                    className="btn btn-sm btn-link text-danger p-0"
                                    aria-label={t('actions.removeSession', { number: s + 1 })}
                                    onClick={() =>
                                      setItem(a, p, i, { sessions: item.sessions.filter((_, index) => index !== s) })
                                    }
                                  >
                                    <X size={14} aria-hidden="true" />
                                  </button>
                                ) : null}
                              </div>
                            ))}
                            {error(`${path}.sessions`) ? (
                              <div className="invalid-feedback d-block">{t('sharesMustAddUp')}</div>
                            ) : null}
                            <button
                              type="button"
                              className="btn btn-sm btn-link px-0"
                              data-testid="plan-add-session"
                              onClick={() => {
                                const count = item.sessions.length + 1;
                                const share = String(Math.floor(100 / count));
                                const sessions = [...item.sessions, newSession()].map((row, index) => ({
                                  ...row,
                                  share: index === count - 1 ? String(100 - Number(share) * (count - 1)) : share,
                                }));
                                setItem(a, p, i, { sessions });
                              }}
                            >
                              <Plus size={14} aria-hidden="true" className="me-1" />
                              {t('actions.addSession')}
                            </button>
                          </div>
                        </div>
                      );
                    })}
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary mt-2"
                      data-testid="plan-add-item"
                      onClick={() =>
                        setPhase(a, p, (current) => ({ ...current, items: [...current.items, newItem()] }))
                      }
                    >
                      <Plus size={14} aria-hidden="true" className="me-1" />
                      {t('actions.addItem')}
                    </button>
                  </fieldset>
                ))}
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary align-self-start"
                  data-testid="plan-add-phase"
                  onClick={() =>
                    setAlternative(a, (current) => ({
                      ...current,
                      phases: [...current.phases, newPhase('restorative', t('phaseKinds.restorative'))],
                    }))
                  }
                >
                  <Plus size={14} aria-hidden="true" className="me-1" />
                  {t('actions.addPhase')}
                </button>
              </div>
            </section>
          </div>
        ))}
      </div>
      <div className="d-flex flex-wrap gap-2">
        {draft.alternatives.length < 4 ? (
          <button
            type="button"
            className="btn btn-outline-secondary"
            data-testid="plan-add-alternative"
            onClick={() =>
              setDraft({
                ...draft,
                alternatives: [
                  ...draft.alternatives,
                  newAlternative(
                    t('alternativeLabel', { letter: String.fromCharCode(65 + draft.alternatives.length) }),
                    t('phaseKinds.basic'),
                  ),
                ],
              })
            }
          >
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('actions.addAlternative')}
          </button>
        ) : null}
        <span className="me-auto" />
        <button type="button" className="btn btn-outline-secondary" onClick={() => onDone(planId)}>
          {t('actions.discard')}
        </button>
        <button type="submit" className="btn btn-primary" data-testid="plan-save" disabled={save.isPending}>
          <Save size={16} aria-hidden="true" className="me-1" />
          {t('actions.save')}
        </button>
      </div>
    </form>
  );
}
