import { describe, expect, it } from 'vitest';
import { ApiError } from './http';
import { isNotFoundError, isRecordId } from './record-id';

describe('record ids from the address bar', () => {
  it('accepts the API ids and refuses anything else', () => {
    expect(isRecordId('0190a0b0-0000-7000-8000-000000000001')).toBe(true);
    expect(isRecordId('0190A0B0-0000-7000-8000-00000000000A')).toBe(true);
    for (const id of ['not-a-uuid', '123', '', ' 0190a0b0-0000-7000-8000-000000000001', undefined]) {
      expect(isRecordId(id), String(id)).toBe(false);
    }
  });

  it('only a failure that may heal is worth a retry', () => {
    expect(isNotFoundError(new ApiError(404, 'patient_not_found', ''))).toBe(true);
    expect(isNotFoundError(new ApiError(400, 'validation_error', ''))).toBe(true);
    expect(isNotFoundError(new ApiError(0, 'networkError', ''))).toBe(false);
    expect(isNotFoundError(new ApiError(500, 'error_get_patient', ''))).toBe(false);
    expect(isNotFoundError(new Error('boom'))).toBe(false);
  });
});
