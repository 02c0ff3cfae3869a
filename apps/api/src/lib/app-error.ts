import { type ErrorBody, type ErrorCode, statusOf } from '@odontia/shared/errors';

/**
 * The one error type of the domain. Services throw `new AppError('patient_not_found')`; the
 * error handler turns it into `{ code, message, details? }` with the code's HTTP status.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    readonly details?: ErrorBody['details'],
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = 'AppError';
    this.statusCode = statusOf(code);
  }
}
