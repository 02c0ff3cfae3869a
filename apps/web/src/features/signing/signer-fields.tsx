import { type Ref, useRef, useState } from 'react';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { SignaturePadField, type SignaturePadHandle } from './signature-pad';

/**
 * Who signs and the signature: the signer's name and ID number side by side, then the pad and its
 * error. An authorization's sign panel and a budget's sign dialog both ask for them.
 */
export function SignerFields({
  id,
  pad,
  name,
  idNumber,
  onName,
  onIdNumber,
  errors,
  onPadDrawn,
  labels,
  padError,
  testIds,
}: {
  id: string;
  pad: Ref<SignaturePadHandle>;
  name: string;
  idNumber: string;
  onName: (name: string) => void;
  onIdNumber: (idNumber: string) => void;
  errors: Record<string, string | undefined>;
  /** The pad got a stroke: its "required" error goes. */
  onPadDrawn: () => void;
  labels: { name: string; idNumber: string };
  /** The pad's error, in the feature's words. */
  padError: string | undefined;
  testIds: { name: string; idNumber: string; signatureError: string };
}) {
  return (
    <>
      <div className="row g-3">
        <SignerInput
          id={`${id}-name`}
          label={labels.name}
          value={name}
          onChange={onName}
          maxLength={200}
          error={errors.signerName}
          testId={testIds.name}
          className="col-sm-7"
        />
        <SignerInput
          id={`${id}-number`}
          label={labels.idNumber}
          value={idNumber}
          onChange={onIdNumber}
          maxLength={40}
          error={errors.signerIdNumber}
          testId={testIds.idNumber}
          className="col-sm-5"
        />
      </div>
      <div>
        <SignaturePadField
          ref={pad}
          id={`${id}-pad`}
          invalid={Boolean(errors.signature)}
          describedBy={errors.signature ? `${id}-pad-error` : undefined}
          onChange={(empty) => {
            if (!empty) onPadDrawn();
          }}
        />
        {errors.signature ? (
          <div id={`${id}-pad-error`} className="invalid-feedback d-block" data-testid={testIds.signatureError}>
            {padError}
          </div>
        ) : null}
      </div>
    </>
  );
}

/**
 * The signer's state: the name and ID number (`initial`: the patient's, when known), the pad and the
 * messages. `fields` spreads into SignerFields beside its labels, pad error and test ids.
 */
export function useSigner(initial: { name?: string; idNumber?: string } = {}) {
  const pad = useRef<SignaturePadHandle>(null);
  const [name, setName] = useState(initial.name ?? '');
  const [idNumber, setIdNumber] = useState(initial.idNumber ?? '');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const fields = {
    pad,
    name,
    idNumber,
    onName: setName,
    onIdNumber: setIdNumber,
    errors,
    onPadDrawn: () => setErrors(({ signature: _, ...rest }) => rest),
  };
  return { pad, name, idNumber, errors, setName, setErrors, fields };
}

/** The signer's required fields and the drawn pad: each missing one as `required` (empty when all are there). */
export function missingSignerFields(name: string, idNumber: string, png: string | null): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!name.trim()) missing.signerName = 'required';
  if (!idNumber.trim()) missing.signerIdNumber = 'required';
  if (!png) missing.signature = 'required';
  return missing;
}

/** One of the signer's text inputs, with its label and message. */
function SignerInput({
  id,
  label,
  value,
  onChange,
  maxLength,
  error,
  testId,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  error: string | undefined;
  testId: string;
  className: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className={`form-control${error ? ' is-invalid' : ''}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={maxLength}
        autoComplete="off"
        aria-describedby={error ? `${id}-error` : undefined}
        data-testid={testId}
      />
      <FieldFeedback id={`${id}-error`} message={fieldCodeText(error)} />
    </div>
  );
}
