import { asc, eq } from 'drizzle-orm';
import { nextCounterValue } from '../db/counters.ts';
import { patients } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { recordAuditEvent } from '../features/audit/audit.repository.ts';
import { patientRecords } from '../features/patients/patients.repository.ts';
import { formatSkuPatient } from '../features/patients/patients.service.ts';
import { newId } from '../lib/ids.ts';

/**
 * The demo clinic's patients (issue 5): 30 people of Buenos Aires, children to elderly, with DNI,
 * phones and addresses; a few inactive and a few with clinical alerts, so the list, its search
 * ("gonz mar"), the active filter and the alert banner all have something to show. Numbered through
 * the clinic's counter like any new patient, each with its 'patient_created' audit event.
 */

type Person = Pick<typeof patients.$inferInsert, 'firstName' | 'lastName' | 'sex' | 'birthdate'> &
  Partial<typeof patients.$inferInsert> & { street: string; district: string };

const people: Person[] = [
  {
    firstName: 'María',
    lastName: 'González',
    sex: 'female',
    birthdate: '1968-04-12',
    ssn: '17845231',
    street: 'Av. Rivadavia 5120, 3.º B',
    district: 'Caballito',
    allergies: 'Penicilina',
    chronicConditions: 'Hipertensión',
    currentMedication: 'Enalapril 10 mg',
  },
  {
    firstName: 'José',
    lastName: 'Pérez Núñez',
    sex: 'male',
    birthdate: '1955-11-03',
    ssn: '11234987',
    street: 'Av. Cabildo 2240, 7.º A',
    district: 'Belgrano',
    chronicConditions: 'Diabetes tipo 2',
    currentMedication: 'Metformina 850 mg',
  },
  {
    firstName: 'Lucía',
    lastName: 'Fernández',
    sex: 'female',
    birthdate: '1992-07-25',
    ssn: '36987412',
    street: 'Gorriti 4312',
    district: 'Palermo',
  },
  {
    firstName: 'Martín',
    lastName: 'Rodríguez',
    sex: 'male',
    birthdate: '1985-02-18',
    ssn: '31456789',
    street: 'Av. Corrientes 3650, 5.º C',
    district: 'Almagro',
  },
  {
    firstName: 'Sofía',
    lastName: 'López',
    sex: 'female',
    birthdate: '2014-09-30',
    ssn: '54123876',
    street: 'Húsares 2150',
    district: 'Belgrano',
    obs: 'Viene con su madre, Carolina López.',
  },
  {
    firstName: 'Juan Ignacio',
    lastName: 'Martínez',
    sex: 'male',
    birthdate: '1978-12-05',
    ssn: '26789345',
    street: 'Av. San Juan 2890',
    district: 'San Cristóbal',
  },
  {
    firstName: 'Valentina',
    lastName: 'Gómez',
    sex: 'female',
    birthdate: '2001-05-14',
    ssn: '43210987',
    street: 'Thames 1540',
    district: 'Villa Crespo',
    allergies: 'Látex',
  },
  {
    firstName: 'Ramón',
    lastName: 'Álvarez',
    sex: 'male',
    birthdate: '1946-08-21',
    ssn: '5678123',
    street: 'Av. de Mayo 1370, 2.º',
    district: 'Monserrat',
    chronicConditions: 'Hipertensión; anticoagulado',
    currentMedication: 'Acenocumarol 4 mg',
    active: false,
  },
  {
    firstName: 'Camila',
    lastName: 'Sánchez',
    sex: 'female',
    birthdate: '1997-03-09',
    ssn: '40321654',
    street: 'Av. Santa Fe 3210, 9.º D',
    district: 'Palermo',
  },
  {
    firstName: 'Mateo',
    lastName: 'Díaz',
    sex: 'male',
    birthdate: '2018-01-22',
    ssn: '57890123',
    street: 'Av. Juan B. Justo 4820',
    district: 'Villa Crespo',
  },
  {
    firstName: 'Ana Belén',
    lastName: 'Romero',
    sex: 'female',
    birthdate: '1989-10-17',
    ssn: '34567890',
    street: 'Bolívar 980',
    district: 'San Telmo',
  },
  {
    firstName: 'Héctor',
    lastName: 'Sosa',
    sex: 'male',
    birthdate: '1951-06-02',
    ssn: '8456123',
    street: 'Av. Directorio 2350',
    district: 'Flores',
    chronicConditions: 'Diabetes tipo 2; hipertensión',
    currentMedication: 'Metformina 500 mg; Enalapril 10 mg',
  },
  {
    firstName: 'Florencia',
    lastName: 'Torres',
    sex: 'female',
    birthdate: '1994-12-28',
    ssn: '38765432',
    street: 'Av. Callao 1120, 4.º A',
    district: 'Recoleta',
  },
  {
    firstName: 'Nicolás',
    lastName: 'Ruiz',
    sex: 'male',
    birthdate: '1982-04-04',
    ssn: '29654321',
    street: 'Av. Triunvirato 4410',
    district: 'Villa Urquiza',
  },
  {
    firstName: 'Agustina',
    lastName: 'Acosta',
    sex: 'female',
    birthdate: '2009-08-11',
    ssn: '49876543',
    street: 'Av. Rivadavia 7800',
    district: 'Flores',
    allergies: 'Ibuprofeno',
  },
  {
    firstName: 'Julián',
    lastName: 'Benítez',
    sex: 'male',
    birthdate: '1975-09-19',
    ssn: '24567123',
    street: 'Pedro Goyena 1050',
    district: 'Caballito',
    active: false,
  },
  {
    firstName: 'Micaela',
    lastName: 'Medina',
    sex: 'female',
    birthdate: '1999-02-07',
    ssn: '41234567',
    street: 'Av. Álvarez Thomas 1560',
    district: 'Colegiales',
  },
  {
    firstName: 'Tomás',
    lastName: 'Herrera',
    sex: 'male',
    birthdate: '2011-11-15',
    ssn: '51234098',
    street: 'Av. Monroe 3300',
    district: 'Núñez',
    obs: 'Ortodoncia en curso.',
  },
  {
    firstName: 'Graciela',
    lastName: 'Aguirre',
    sex: 'female',
    birthdate: '1949-03-27',
    ssn: '6123456',
    street: 'Av. Pueyrredón 1750, 6.º B',
    district: 'Recoleta',
    allergies: 'Penicilina; látex',
    chronicConditions: 'Osteoporosis',
    currentMedication: 'Alendronato 70 mg semanal',
  },
  {
    firstName: 'Diego',
    lastName: 'Pereyra',
    sex: 'male',
    birthdate: '1987-07-01',
    ssn: '33123456',
    street: 'Av. Boedo 980',
    district: 'Boedo',
  },
  {
    firstName: 'Carolina',
    lastName: 'Gutiérrez',
    sex: 'female',
    birthdate: '1980-05-23',
    ssn: '28345678',
    street: 'Cuba 2240',
    district: 'Belgrano',
  },
  {
    firstName: 'Joaquín',
    lastName: 'Castro',
    sex: 'male',
    birthdate: '2005-10-08',
    ssn: '46789012',
    street: 'Av. Nazca 2100',
    district: 'Villa del Parque',
  },
  {
    firstName: 'Marta',
    lastName: 'Giménez',
    sex: 'female',
    birthdate: '1958-01-30',
    ssn: '12987654',
    street: 'Av. La Plata 1430',
    district: 'Boedo',
    chronicConditions: 'Hipotiroidismo',
    currentMedication: 'Levotiroxina 75 mcg',
  },
  {
    firstName: 'Facundo',
    lastName: 'Molina',
    sex: 'male',
    birthdate: '1991-08-14',
    ssn: '36123789',
    street: 'Av. Scalabrini Ortiz 1210',
    district: 'Palermo',
  },
  {
    firstName: 'Paula',
    lastName: 'Ortiz',
    sex: 'female',
    birthdate: '1984-06-06',
    ssn: '30987123',
    street: 'Tucumán 1850, 1.º',
    district: 'Balvanera',
    active: false,
  },
  {
    firstName: 'Ignacio',
    lastName: 'Núñez',
    sex: 'male',
    birthdate: '1972-03-16',
    ssn: '22876543',
    street: 'Av. Cramer 2450',
    district: 'Belgrano',
  },
  {
    firstName: 'Renata',
    lastName: 'Suárez',
    sex: 'female',
    birthdate: '2020-04-03',
    ssn: '58123789',
    street: 'Av. Lacroze 3120',
    district: 'Colegiales',
  },
  {
    firstName: 'Esteban',
    lastName: 'Vázquez',
    sex: 'male',
    birthdate: '1963-12-12',
    ssn: '16543210',
    street: 'Av. Independencia 3010',
    district: 'Boedo',
    allergies: 'Látex',
  },
  {
    firstName: 'Mercedes',
    lastName: 'Ibáñez',
    sex: 'female',
    birthdate: '1939-09-09',
    ssn: '3456789',
    street: 'Av. Las Heras 2980, 8.º',
    district: 'Palermo',
    chronicConditions: 'Hipertensión; marcapasos',
    currentMedication: 'Enalapril 10 mg',
  },
  {
    firstName: 'Lautaro',
    lastName: 'Rojas',
    sex: 'male',
    birthdate: '1996-02-25',
    ssn: '39876012',
    street: 'Av. Alberdi 4500',
    district: 'Parque Avellaneda',
  },
];

/** Spanish-speaking e-mail local parts: 'María José' → 'maria.jose'. */
function emailOf(person: Person): string {
  const plain = (value: string) =>
    value
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
      .replace(/[^a-z]+/g, '.');
  return `${plain(person.firstName)}.${plain(person.lastName.split(' ')[0] ?? person.lastName)}@correo.demo`;
}

export async function seedDemoPatients(
  tx: TenantTx,
  accountId: string,
  users: { administratorId: string; userId: string },
): Promise<void> {
  for (const [index, person] of people.entries()) {
    const id = newId();
    const skuPatient = formatSkuPatient(await nextCounterValue({ tx, accountId }, 'patient'));
    const author = index % 3 === 0 ? users.userId : users.administratorId;
    const columns = {
      email: index % 4 === 3 ? null : emailOf(person),
      phoneArea: '+54',
      phone: `11 ${String(4000 + index * 137).slice(0, 4)}-${String(1000 + index * 311).slice(-4)}`,
      medicalHistory: `HC-${String(1200 + index)}`,
      active: true,
      country: 'Argentina',
      state: 'Ciudad Autónoma de Buenos Aires',
      city: 'Buenos Aires',
      zipCode: `C${1400 + index * 7}`,
      address: `${person.street}, ${person.district}`,
      ...person,
    };
    await patientRecords.insert({ tx, accountId, userId: author }, { ...columns, id, skuPatient });
    await recordAuditEvent(tx, {
      accountId,
      userId: author,
      patientId: id,
      action: 'patient_created',
      entity: 'patient',
      entityId: id,
      after: { skuPatient, ...columns },
    });
  }
}

/** The demo clinic's staff the later steps write as: the administrator and the supervisor (a professional). */
export interface DemoStaff {
  administratorId: string;
  supervisorId: string;
}

/** The ids of the demo clinic's first `count` patients (by record number), or null when it has fewer. */
export async function firstDemoPatients(tx: TenantTx, accountId: string, count: number): Promise<string[] | null> {
  const rows = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.accountId, accountId))
    .orderBy(asc(patients.skuPatient))
    .limit(count);
  return rows.length < count ? null : rows.map((row) => row.id);
}
