import { describe, expect, it } from 'vitest';
import { photoUpload } from '../../test/multipart.ts';
import { useTestClinic } from '../../test/test-clinic.ts';

/**
 * Answers of the API carry health data: no browser or proxy may keep them (issue 14). Stored files
 * and their thumbnails keep their private caching (the same user's browser only).
 */
describe('Cache-Control of the API', () => {
  const t = useTestClinic(undefined, { patient: { allergies: 'Penicilina' } });
  const get = (url: string, token: string | undefined = t.clinic.token) => t.call('GET', url, { token: token || null });

  it('answers no-store on reads, writes, errors and PDFs', async () => {
    const answers = [
      await get('/api/auth/system/me'),
      await get('/api/patients'),
      await get(`/api/patients/${t.patientId}`),
      await get(`/api/patients/${t.patientId}/odontogram.pdf`),
      await get('/api/patients/not-a-uuid'),
      await get('/api/patients', undefined),
      await get('/api/no-such-route'),
      await get('/api/health'),
      await t.call('POST', '/api/patients', {
        body: { firstName: 'Ana', lastName: 'Ruiz', sex: 'female', birthdate: '1990-01-01' },
      }),
    ];
    for (const answer of answers) {
      expect(answer.headers['cache-control'], `${answer.statusCode} ${answer.body.slice(0, 80)}`).toBe('no-store');
    }
  });

  it('keeps the private caching of a stored file and its thumbnail', async () => {
    const photo = await photoUpload();
    const uploaded = await t.call('POST', `/api/patients/${t.patientId}/files`, {
      headers: { 'content-type': photo.contentType },
      body: photo.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.headers['cache-control']).toBe('no-store');
    const fileId = uploaded.json().data[0].id as string;
    for (const url of [
      `/api/patients/${t.patientId}/files/${fileId}/content`,
      `/api/patients/${t.patientId}/files/${fileId}/thumbnail`,
    ]) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['cache-control'], url).toBe('private, max-age=3600');
    }
  });
});
