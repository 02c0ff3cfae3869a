/** The interface languages (spec §3). */
export const languages = ['es', 'en', 'fr', 'pt'] as const;
export type Language = (typeof languages)[number];
/** The interface falls back to English when the detected language is not offered. */
export const fallbackLanguage: Language = 'en';
