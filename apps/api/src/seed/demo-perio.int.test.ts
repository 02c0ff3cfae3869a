import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';

describe('demo clinic periodontal charts', () => {
  const demo = useDemoClinic();
  const get = async (url: string) => (await demo.get(url)).json();

  it('gives the first patient a closed exam and a later draft that shows change', async () => {
    const patients = (await get('/api/patients?sort=skuPatient&pageSize=1')).data as { id: string }[];
    const first = patients[0]?.id;
    const exams = (await get(`/api/patients/${first}/perio-exams`)).data as {
      id: string;
      status: string;
      indices: { depth6Sites: number; bleedingPercent: number };
    }[];
    expect(exams.map((exam) => exam.status)).toEqual(['draft', 'closed']);
    const [later, earlier] = exams;
    expect(later?.indices.depth6Sites).toBeGreaterThan(earlier?.indices.depth6Sites ?? 0);
    expect(later?.indices.bleedingPercent).toBeLessThan(earlier?.indices.bleedingPercent ?? 0);
    const exam = (await get(`/api/patients/${first}/perio-exams/${earlier?.id}`)).data;
    // The odontogram's missing 18 and 28 are not charted.
    expect(exam.teeth.map((tooth: { tooth: number }) => tooth.tooth)).not.toContain(18);
    expect(exam.teeth).toHaveLength(30);
  });
});
