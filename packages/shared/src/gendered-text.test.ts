import { describe, expect, it } from 'vitest';
import { genderedText } from './gendered-text.ts';
import { certificateTemplates } from './schemas/health-certificates.ts';

/** Certificates, consents and reminders said for the patient's sex (issue 34). */
describe('genderedText', () => {
  it.each([
    ['fue atendido/a y está apto/a', 'female', 'fue atendida y está apta'],
    ['fue atendido/a y está apto/a', 'male', 'fue atendido y está apto'],
    ['Estimado/a {name}:', 'female', 'Estimada {name}:'],
    ['del/de la interesado/a', 'female', 'de la interesada'],
    ['el/la doctor/a', 'female', 'la doctora'],
    ['el/la doctor/a', 'male', 'el doctor'],
    ['foi atendido(a), a pedido do(a) interessado(a)', 'female', 'foi atendida, a pedido da interessada'],
    ['Prezado(a) {name},', 'male', 'Prezado {name},'],
    ["a été reçu(e) à la demande de l'intéressé(e)", 'female', "a été reçue à la demande de l'intéressée"],
    ['Je soussigné(e), {{patient}}', 'male', 'Je soussigné, {{patient}}'],
  ])('%s for %s: %s', (text, sex, expected) => {
    expect(genderedText(text, sex)).toBe(expected);
  });

  it('keeps the inclusive forms when the sex is not known', () => {
    expect(genderedText('fue atendido/a', null)).toBe('fue atendido/a');
    expect(genderedText('fue atendido/a', 'other')).toBe('fue atendido/a');
  });

  it('leaves other words, slashes and brackets alone', () => {
    const text = 'Control 1/2 (a las 10), y/o; todo/a nada. Radiografía (e) [a]';
    expect(genderedText('Radiografía 1/2 (a las 10) y/o', 'female')).toBe('Radiografía 1/2 (a las 10) y/o');
    expect(genderedText(text, 'male')).toBe('Control 1/2 (a las 10), y/o; todo nada. Radiografía (e) [a]');
  });

  it('leaves no inclusive form in the product templates once the sex is known', () => {
    for (const [language, kinds] of Object.entries(certificateTemplates))
      for (const [kind, text] of Object.entries(kinds))
        for (const sex of ['male', 'female'])
          expect(genderedText(text, sex), `${language} ${kind} ${sex}`).not.toMatch(/\p{L}\/\p{L}|\p{L}\((a|e)\)/u);
  });
});
