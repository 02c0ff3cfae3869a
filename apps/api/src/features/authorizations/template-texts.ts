import type { Language } from '@odontia/shared/enums';
import {
  certificateTemplates,
  certificateTemplateTitles,
  type HealthCertificateKind,
  healthCertificateKinds,
} from '@odontia/shared/schemas/health-certificates';

/**
 * Informed-consent templates the product ships: the general one every new clinic gets in its
 * language at sign-up, and the two procedure templates of the demo clinic. Placeholders as
 * `authorizationPlaceholders` lists them.
 */

export interface TemplateText {
  title: string;
  body: string;
}

export const defaultTemplates: Record<Language, TemplateText> = {
  es: {
    title: 'Consentimiento informado para tratamiento odontológico',
    body: `Yo, {{patient}}, DNI {{idNumber}}, declaro que {{professional}}, de {{clinic}}, me explicó en términos claros el tratamiento que se me propone: {{treatment}}.

Riesgos y posibles complicaciones: {{risks}}

Alternativas de tratamiento, incluida la de no tratarme: {{alternatives}}

Costo estimado: {{cost}}.

Tuve la oportunidad de hacer preguntas y todas fueron respondidas. Sé que puedo revocar este consentimiento en cualquier momento antes del tratamiento. En consecuencia, autorizo la realización del tratamiento descrito.

Fecha: {{date}}`,
  },
  en: {
    title: 'Informed consent for dental treatment',
    body: `I, {{patient}}, ID number {{idNumber}}, declare that {{professional}}, of {{clinic}}, has explained to me in clear terms the treatment proposed: {{treatment}}.

Risks and possible complications: {{risks}}

Treatment alternatives, including no treatment: {{alternatives}}

Estimated cost: {{cost}}.

I was able to ask questions and all of them were answered. I know I may withdraw this consent at any time before the treatment. I therefore authorise the treatment described.

Date: {{date}}`,
  },
  fr: {
    title: 'Consentement éclairé pour un traitement dentaire',
    body: `Je soussigné(e), {{patient}}, pièce d'identité {{idNumber}}, déclare que {{professional}}, de {{clinic}}, m'a expliqué clairement le traitement proposé : {{treatment}}.

Risques et complications possibles : {{risks}}

Alternatives thérapeutiques, y compris l'absence de traitement : {{alternatives}}

Coût estimé : {{cost}}.

J'ai pu poser mes questions et toutes ont reçu une réponse. Je sais que je peux retirer ce consentement à tout moment avant le traitement. J'autorise donc le traitement décrit.

Date : {{date}}`,
  },
  pt: {
    title: 'Consentimento informado para tratamento odontológico',
    body: `Eu, {{patient}}, documento {{idNumber}}, declaro que {{professional}}, de {{clinic}}, me explicou em termos claros o tratamento proposto: {{treatment}}.

Riscos e possíveis complicações: {{risks}}

Alternativas de tratamento, incluindo não tratar: {{alternatives}}

Custo estimado: {{cost}}.

Pude fazer perguntas e todas foram respondidas. Sei que posso revogar este consentimento a qualquer momento antes do tratamento. Assim, autorizo a realização do tratamento descrito.

Data: {{date}}`,
  },
};

/** The demo clinic's procedure templates (Spanish, Argentina). */
export const demoTemplates: TemplateText[] = [
  {
    title: 'Consentimiento informado para extracción dentaria',
    body: `En {{clinic}}, a la fecha {{date}}, yo, {{patient}}, DNI {{idNumber}}, autorizo a {{professional}} a realizarme el siguiente procedimiento: {{treatment}}.

Se me explicó que la extracción dentaria consiste en retirar la pieza de su alvéolo bajo anestesia local, y que después del procedimiento es esperable dolor moderado, inflamación y un pequeño sangrado durante las primeras 24 a 48 horas.

Riesgos y complicaciones posibles: {{risks}}

Alternativas que se me ofrecieron: {{alternatives}}

Costo estimado del tratamiento: {{cost}}.

Me comprometo a seguir las indicaciones posoperatorias (no enjuagarme ni hacer esfuerzos el primer día, no fumar, dieta blanda y fría, tomar la medicación indicada) y a avisar de inmediato si tengo fiebre, sangrado que no cede o dolor intenso.

Declaro que informé mis enfermedades, alergias y medicamentos que tomo, que pude hacer todas las preguntas que quise y que comprendí las respuestas. Sé que puedo revocar este consentimiento antes de iniciado el procedimiento.`,
  },
  {
    title: 'Consentimiento informado para tratamiento de conducto',
    body: `En {{clinic}}, a la fecha {{date}}, yo, {{patient}}, DNI {{idNumber}}, autorizo a {{professional}} a realizarme un tratamiento de conducto (endodoncia): {{treatment}}.

Se me explicó que el tratamiento consiste en retirar la pulpa dental (el "nervio") afectada, limpiar y desinfectar los conductos y sellarlos, en una o más sesiones, bajo anestesia local, y que luego la pieza necesitará una restauración definitiva (obturación o corona) para no fracturarse.

Riesgos y complicaciones posibles: {{risks}}

Alternativas que se me ofrecieron: {{alternatives}}

Costo estimado del tratamiento: {{cost}} (no incluye la restauración definitiva salvo que se indique).

Entiendo que la endodoncia tiene un alto porcentaje de éxito pero no lo garantiza, y que en algunos casos puede ser necesario repetir el tratamiento, hacer una cirugía apical o extraer la pieza.

Declaro que informé mis enfermedades, alergias y medicamentos que tomo, que pude hacer todas las preguntas que quise y que comprendí las respuestas. Sé que puedo revocar este consentimiento antes de iniciado el procedimiento.`,
  },
];

/** A clinic's default certificate templates: the product's text of each kind, in a language (issue 24). */
export function defaultCertificateTemplates(language: Language): (TemplateText & { kind: HealthCertificateKind })[] {
  return healthCertificateKinds.map((kind) => ({
    kind,
    title: certificateTemplateTitles[language][kind],
    body: certificateTemplates[language][kind],
  }));
}
