/**
 * The inclusive forms of the words of a text written to or about a patient ("atendido/a",
 * "apto(a)", "Estimado/a", "reçu(e)", "soussigné(e)") said for the patient's sex: "atendido" or
 * "atendida", "reçu" or "reçue". Kept as written when the sex is not known. Applied to a template's
 * text before its placeholders are filled (a typed diagnosis or name is left alone): certificates,
 * consents and reminder e-mails.
 */
export function genderedText(text: string, sex: string | null | undefined): string {
  if (sex !== 'male' && sex !== 'female') return text;
  const female = sex === 'female';
  return (
    text
      // Spanish and Portuguese: "atendido/a", "atendido(a)", "do(a)", "el/la", "del/de la", "doctor/a".
      .replace(/(?<!\p{L})(\p{L}*)o(?:\/a|\(a\))(?!\p{L})/gu, (_whole, stem: string) => `${stem}${female ? 'a' : 'o'}`)
      .replace(
        /(?<!\p{L})(\p{L}*)or(?:\/a|\(a\))(?!\p{L})/gu,
        (_whole, stem: string) => `${stem}or${female ? 'a' : ''}`,
      )
      .replace(/(?<!\p{L})(el|del|al)\/(la|de la|a la)(?!\p{L})/giu, (_whole, male: string, woman: string) =>
        female ? woman : male,
      )
      // French: "reçu(e)", "examiné(e)", "intéressé(e)".
      .replace(/(\p{L}+)\(e\)(?!\p{L})/gu, (_whole, stem: string) => `${stem}${female ? 'e' : ''}`)
  );
}
