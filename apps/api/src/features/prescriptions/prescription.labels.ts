import type { Language } from '@odontia/shared/enums';

/**
 * The texts of the printed prescription, in the patient's language (Spanish first). The one place
 * for them on the server.
 */

export interface PrescriptionTexts {
  title: string;
  patient: string;
  idNumber: string;
  age: string;
  years: string;
  date: string;
  diagnosis: string;
  medicines: string;
  dose: string;
  frequency: string;
  duration: string;
  quantity: string;
  instructions: string;
  professional: string;
  license: string;
  signature: string;
  verificationCode: string;
  verificationHint: string;
}

export const prescriptionTexts: Record<Language, PrescriptionTexts> = {
  es: {
    title: 'Receta',
    patient: 'Paciente',
    idNumber: 'DNI',
    age: 'Edad',
    years: 'años',
    date: 'Fecha',
    diagnosis: 'Diagnóstico',
    medicines: 'Rp/',
    dose: 'Dosis',
    frequency: 'Frecuencia',
    duration: 'Duración',
    quantity: 'Cantidad',
    instructions: 'Indicaciones',
    professional: 'Profesional',
    license: 'Matrícula',
    signature: 'Firma y sello del profesional',
    verificationCode: 'Código de verificación',
    verificationHint: 'La farmacia puede verificar esta receta con la clínica citando este código.',
  },
  en: {
    title: 'Prescription',
    patient: 'Patient',
    idNumber: 'ID number',
    age: 'Age',
    years: 'years',
    date: 'Date',
    diagnosis: 'Diagnosis',
    medicines: 'Rx',
    dose: 'Dose',
    frequency: 'Frequency',
    duration: 'Duration',
    quantity: 'Quantity',
    instructions: 'Instructions',
    professional: 'Professional',
    license: 'Licence no.',
    signature: "Professional's signature and stamp",
    verificationCode: 'Verification code',
    verificationHint: 'The pharmacy can verify this prescription with the clinic by quoting this code.',
  },
  fr: {
    title: 'Ordonnance',
    patient: 'Patient',
    idNumber: "N° d'identité",
    age: 'Âge',
    years: 'ans',
    date: 'Date',
    diagnosis: 'Diagnostic',
    medicines: 'Prescription',
    dose: 'Dose',
    frequency: 'Fréquence',
    duration: 'Durée',
    quantity: 'Quantité',
    instructions: 'Consignes',
    professional: 'Praticien',
    license: "N° d'inscription",
    signature: 'Signature et cachet du praticien',
    verificationCode: 'Code de vérification',
    verificationHint: 'La pharmacie peut vérifier cette ordonnance auprès de la clinique en citant ce code.',
  },
  pt: {
    title: 'Receita',
    patient: 'Paciente',
    idNumber: 'Documento',
    age: 'Idade',
    years: 'anos',
    date: 'Data',
    diagnosis: 'Diagnóstico',
    medicines: 'Uso',
    dose: 'Dose',
    frequency: 'Frequência',
    duration: 'Duração',
    quantity: 'Quantidade',
    instructions: 'Instruções',
    professional: 'Profissional',
    license: 'Registro profissional',
    signature: 'Assinatura e carimbo do profissional',
    verificationCode: 'Código de verificação',
    verificationHint: 'A farmácia pode verificar esta receita com a clínica citando este código.',
  },
};
