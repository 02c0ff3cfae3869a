import { can } from '@odontia/shared/permissions';
import { fhirRoutes } from '@odontia/shared/routes/fhir';
import type { FhirBundleBody, FhirImportReport } from '@odontia/shared/schemas/fhir';
import { FileInput, FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { IconTextButton } from '../../components/icon-button';
import { callApi } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-errors';
import { isApiError } from '../../lib/http';
import { newIdempotencyKey } from '../../lib/use-action';
import { useSessionUser } from '../../session/session';
import { patientPaths } from './api';

/** The FHIR import's refusals the screen names one by one (`fhir_bundle_invalid`'s `problems`). */
const problemReasons = new Set(['not_a_bundle', 'not_a_collection', 'no_resource', 'no_patient', 'several_patients']);

type Problem = { path: string; reason: string };

/** 20 MB: the server's limit for a bundle. */
const maxBytes = 20 * 1024 * 1024;

/**
 * "Importar paciente (FHIR)" on the patients list (issue 42; `patients.import`): a patient moving
 * in from another clinic or system brings their record as a FHIR R4 Bundle (.json); it becomes a
 * new patient here (POST /api/fhir/import). The screen says what was imported and what was left
 * out, links to the new patient, and says in words why a file is refused (not JSON, not a Bundle,
 * no patient…).
 */
export function FhirImportButton() {
  const { t } = useTranslation('patients');
  const user = useSessionUser();
  const [show, setShow] = useState(false);
  if (!user || !can(user.level, 'patients.import')) return null;
  return (
    <>
      <IconTextButton
        icon={FileInput}
        className="btn btn-outline-secondary"
        onClick={() => setShow(true)}
        testId="fhir-import-open"
      >
        {t('fhirImport.open')}
      </IconTextButton>
      <Modal show={show} onHide={() => setShow(false)} centered aria-labelledby="fhir-import-title">
        {show ? <FhirImportForm onClose={() => setShow(false)} /> : null}
      </Modal>
    </>
  );
}

function FhirImportForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['patients', 'common']);
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; details: string[] } | null>(null);
  const [report, setReport] = useState<FhirImportReport | null>(null);

  const submit = async () => {
    setProblem(null);
    setReport(null);
    if (!file) {
      setProblem({ text: t('fhirImport.noFile'), details: [] });
      return;
    }
    if (file.size > maxBytes) {
      setProblem({ text: t('fhirImport.tooLarge'), details: [] });
      return;
    }
    setBusy(true);
    try {
      let bundle: unknown;
      try {
        bundle = JSON.parse(await file.text());
      } catch {
        setProblem({ text: t('fhirImport.notJson'), details: [] });
        return;
      }
      if (!bundle || typeof bundle !== 'object' || Array.isArray(bundle)) {
        setProblem({ text: t('fhirImport.notBundle'), details: [] });
        return;
      }
      const answer = await callApi(fhirRoutes.import, {
        body: bundle as FhirBundleBody,
        idempotencyKey: newIdempotencyKey(),
      });
      setReport(answer.data);
    } catch (error) {
      setProblem(describeFailure(error, t));
    } finally {
      setBusy(false);
    }
  };

  const importedCount = report ? Object.values(report.imported).reduce((sum, count) => sum + count, 0) : 0;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="fhir-import"
    >
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id="fhir-import-title" as="h2" className="h5">
          {t('fhirImport.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="d-flex flex-column gap-3">
        <p className="mb-0 text-body-secondary">{t('fhirImport.intro')}</p>
        <div>
          <label htmlFor={`${id}-file`} className="form-label">
            {t('fhirImport.file')}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            className="form-control"
            accept=".json,application/json,application/fhir+json"
            aria-describedby={`${id}-hint`}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblem(null);
              setReport(null);
            }}
            data-testid="fhir-import-file"
          />
          <div id={`${id}-hint`} className="form-text">
            {t('fhirImport.hint')}
          </div>
        </div>
        {problem ? (
          <FormAlert testId="fhir-import-error">
            {problem.text}
            {problem.details.length ? (
              <ul className="mb-0 mt-1 ps-3 small">
                {problem.details.map((detail) => (
                  <li key={detail}>{detail}</li>
                ))}
              </ul>
            ) : null}
          </FormAlert>
        ) : null}
        {report ? (
          <div className="alert alert-success mb-0" role="status" data-testid="fhir-import-result">
            <div className="fw-semibold mb-1">{t('fhirImport.done', { count: importedCount })}</div>
            {report.skipped.length ? (
              <div className="small mb-2">{t('fhirImport.skipped', { count: report.skipped.length })}</div>
            ) : null}
            <Link
              to={patientPaths.edit(report.patientId)}
              onClick={onClose}
              className="alert-link"
              data-testid="fhir-import-patient"
            >
              {t('fhirImport.openPatient')}
            </Link>
          </div>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
          {t('common:close')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="fhir-import-submit">
          <BusyIcon busy={busy} icon={FileUp} />
          {t('fhirImport.submit')}
        </button>
      </Modal.Footer>
    </form>
  );
}

/** A refused import in words: the server's message, and for a file that is not a bundle, each problem. */
function describeFailure(error: unknown, t: (key: string, options?: Record<string, unknown>) => string) {
  if (isApiError(error) && error.code === 'fhir_bundle_invalid') {
    const problems = (Array.isArray(error.details?.problems) ? error.details.problems : []) as Problem[];
    const details = problems
      .slice(0, 5)
      .map((problem) =>
        problemReasons.has(problem.reason)
          ? t(`fhirImport.problems.${problem.reason}`, { path: problem.path })
          : t('fhirImport.problems.field', { path: problem.path }),
      );
    return { text: t('fhirImport.invalid'), details: [...new Set(details)] };
  }
  return { text: errorMessage(error), details: [] };
}
