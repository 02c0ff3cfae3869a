import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';

describe('demo clinic odontograms', () => {
  const demo = useDemoClinic();
  const get = async (url: string) => (await demo.get(url)).json();

  it('charts the first two patients on their attendance days, so the timeline has stops', async () => {
    const patients = (await get('/api/patients?sort=skuPatient&pageSize=2')).data as { id: string }[];
    const first = patients[0]?.id;
    const chart = (await get(`/api/patients/${first}/odontogram`)).data;
    expect(chart.dates).toHaveLength(2);
    expect(chart.teeth.find((tooth: { tooth: number }) => tooth.tooth === 36).zones.occlusal.status).toBe('filling');
    const before = (await get(`/api/patients/${first}/odontogram?at=${encodeURIComponent(chart.dates[0])}`)).data;
    expect(before.teeth.find((tooth: { tooth: number }) => tooth.tooth === 36).zones.occlusal.status).toBe('caries');
    const entries = await get(`/api/patients/${first}/odontogram/entries?pageSize=1`);
    expect(entries.data[0]).toMatchObject({ tooth: 36, attendanceTitle: 'Obturación pieza 36' });
    const second = (await get(`/api/patients/${patients[1]?.id}/odontogram`)).data;
    expect(second.teeth.find((tooth: { tooth: number }) => tooth.tooth === 46).piece.status).toBe('root_canal');
  });
});
