import type { LaboratoryStudy, Language } from '@odontia/shared/enums';

/**
 * The texts of the printed laboratory order, in the user's language (Spanish first). The one
 * place for them on the server: the study names here are the ones the patient takes to the lab.
 */

export interface LaboratoryOrderTexts {
  title: string;
  patient: string;
  idNumber: string;
  age: string;
  years: string;
  professional: string;
  orderDate: string;
  laboratory: string;
  studies: string;
  instructions: string;
  signature: string;
  studyNames: Record<LaboratoryStudy, string>;
}

export const laboratoryOrderTexts: Record<Language, LaboratoryOrderTexts> = {
  es: {
    title: 'Orden de laboratorio',
    patient: 'Paciente',
    idNumber: 'DNI',
    age: 'Edad',
    years: 'años',
    professional: 'Profesional',
    orderDate: 'Fecha de la orden',
    laboratory: 'Laboratorio',
    studies: 'Estudios solicitados',
    instructions: 'Indicaciones',
    signature: 'Firma y sello del profesional',
    studyNames: {
      hematology: 'Hematología',
      blood_chemistry: 'Química sanguínea',
      blood_count: 'Hemograma completo',
      coagulation: 'Coagulograma',
      allergy_tests: 'Pruebas de alergia',
      dna_tests: 'Pruebas de ADN',
      biopsy: 'Biopsia',
      bacterial_plaque_assessment: 'Evaluación de placa bacteriana',
      magnetic_resonance: 'Resonancia magnética',
      computed_tomography: 'Tomografía computarizada',
      ultrasound: 'Ecografía',
      x_ray: 'Radiografía',
      dental_radiography: 'Radiografía dental',
    },
  },
  en: {
    title: 'Laboratory order',
    patient: 'Patient',
    idNumber: 'ID number',
    age: 'Age',
    years: 'years',
    professional: 'Professional',
    orderDate: 'Order date',
    laboratory: 'Laboratory',
    studies: 'Studies requested',
    instructions: 'Instructions',
    signature: "Professional's signature and stamp",
    studyNames: {
      hematology: 'Hematology',
      blood_chemistry: 'Blood chemistry',
      blood_count: 'Complete blood count',
      coagulation: 'Coagulation panel',
      allergy_tests: 'Allergy tests',
      dna_tests: 'DNA tests',
      biopsy: 'Biopsy',
      bacterial_plaque_assessment: 'Bacterial plaque assessment',
      magnetic_resonance: 'Magnetic resonance imaging',
      computed_tomography: 'Computed tomography',
      ultrasound: 'Ultrasound',
      x_ray: 'X-ray',
      dental_radiography: 'Dental radiography',
    },
  },
  fr: {
    title: "Ordonnance d'analyses",
    patient: 'Patient',
    idNumber: "N° d'identité",
    age: 'Âge',
    years: 'ans',
    professional: 'Praticien',
    orderDate: "Date de l'ordonnance",
    laboratory: 'Laboratoire',
    studies: 'Examens demandés',
    instructions: 'Consignes',
    signature: 'Signature et cachet du praticien',
    studyNames: {
      hematology: 'Hématologie',
      blood_chemistry: 'Biochimie sanguine',
      blood_count: 'Numération formule sanguine',
      coagulation: 'Bilan de coagulation',
      allergy_tests: "Tests d'allergie",
      dna_tests: 'Tests ADN',
      biopsy: 'Biopsie',
      bacterial_plaque_assessment: 'Évaluation de la plaque bactérienne',
      magnetic_resonance: 'IRM',
      computed_tomography: 'Scanner (tomodensitométrie)',
      ultrasound: 'Échographie',
      x_ray: 'Radiographie',
      dental_radiography: 'Radiographie dentaire',
    },
  },
  pt: {
    title: 'Pedido de exames laboratoriais',
    patient: 'Paciente',
    idNumber: 'Documento',
    age: 'Idade',
    years: 'anos',
    professional: 'Profissional',
    orderDate: 'Data do pedido',
    laboratory: 'Laboratório',
    studies: 'Exames solicitados',
    instructions: 'Instruções',
    signature: 'Assinatura e carimbo do profissional',
    studyNames: {
      hematology: 'Hematologia',
      blood_chemistry: 'Bioquímica sanguínea',
      blood_count: 'Hemograma completo',
      coagulation: 'Coagulograma',
      allergy_tests: 'Testes de alergia',
      dna_tests: 'Testes de DNA',
      biopsy: 'Biópsia',
      bacterial_plaque_assessment: 'Avaliação de placa bacteriana',
      magnetic_resonance: 'Ressonância magnética',
      computed_tomography: 'Tomografia computadorizada',
      ultrasound: 'Ultrassonografia',
      x_ray: 'Raio X',
      dental_radiography: 'Radiografia odontológica',
    },
  },
};
