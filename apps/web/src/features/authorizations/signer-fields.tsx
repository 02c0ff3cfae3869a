import type { Ref } from 'react';
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
        <div className="col-sm-7">
          <label htmlFor={`${id}-name`} className="form-label">
            {labels.name}
          </label>
          <input
            id={`${id}-name`}
            className={`form-control${errors.signerName ? ' is-invalid' : ''}`}
            value={name}
            onChange={(event) => onName(event.target.value)}
            maxLength={200}
            autoComplete="off"
            aria-describedby={errors.signerName ? `${id}-name-error` : undefined}
            data-testid={testIds.name}
          />
          <FieldFeedback id={`${id}-name-error`} message={fieldCodeText(errors.signerName)} />
        </div>
        <div className="col-sm-5">
          <label htmlFor={`${id}-number`} className="form-label">
            {labels.idNumber}
          </label>
          <input
            id={`${id}-number`}
            className={`form-control${errors.signerIdNumber ? ' is-invalid' : ''}`}
            value={idNumber}
            onChange={(event) => onIdNumber(event.target.value)}
            maxLength={40}
            autoComplete="off"
            aria-describedby={errors.signerIdNumber ? `${id}-number-error` : undefined}
            data-testid={testIds.idNumber}
          />
          <FieldFeedback id={`${id}-number-error`} message={fieldCodeText(errors.signerIdNumber)} />
        </div>
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
