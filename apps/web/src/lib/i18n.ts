import { setTypingLanguage } from '@odontia/shared/decimal-input';
import { type Language, languages } from '@odontia/shared/languages';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { textDirection } from './text-direction';

export { textDirection };

/** Namespaces of `src/locales` (web) and of `packages/shared/src/locales` (shared with the server). */
export const appNamespaces = ['common', 'layout', 'auth'] as const;
/** The patient record's areas: the patient, the medical history's records and the files. */
export const clinicalNamespaces = [
  'patients',
  'clinical',
  'odontogram',
  'perio',
  'prescriptions',
  'certificates',
  'authorizations',
  'files',
  // Issue 41: treatment plans.
  'plans',
] as const;
/**
 * Loaded by the page that needs them, not at start: long texts few visitors read, and the
 * inventory, patient and clinical record pages' texts (their routes load the namespace with the page, see
 * app/router.tsx).
 */
export const onDemandNamespaces = [
  'terms',
  'profile',
  'users',
  'inventory',
  ...clinicalNamespaces,
  'schedules',
  'appointmentLinks',
  'signing',
  'dashboard',
  'agenda',
  'purchases',
  'providers',
  'fiscal',
  'payments',
  'currentAccounts',
  'customerPicker',
  'budgets',
  'collections',
  'sales',
  'priceList',
  'recalls',
  'labCases',
  'messaging',
  'einvoicing',
  'webhooks',
  'customers',
  'settings',
  'account',
  'reports',
  'cash',
  // Issue 40: third-party payers.
  'payers',
  'paymentPlans',
  'settlements',
  // Issue 42: API tokens and the clinic's full export.
  'apiTokens',
  'clinicExport',
  'imports',
] as const;
export const sharedNamespaces = ['messages', 'validation'] as const;
/**
 * The server's codes that only a signed-in screen meets (a record's, a document's…), in a catalog
 * of their own so the sign-in page does not carry them: every signed-in route loads it
 * (app/router.tsx), and a lookup of `messages:<code>` falls back to it (`fallbackNS`).
 */
export const appMessagesNamespace = 'appMessages';
export const namespaces = [...appNamespaces, ...sharedNamespaces];

/** Each language's name in that language, for the switcher. */
export const languageNames: Record<Language, string> = {
  es: 'Español',
  en: 'English',
  fr: 'Français',
  pt: 'Português',
};

export const languageStorageKey = 'i18nextLng';

type Catalog = Record<string, ResourceKey>;
type CatalogLoader = () => Promise<Catalog>;

// Lazy globs: Vite emits one small chunk per language and namespace, fetched on demand.
const appCatalogs = import.meta.glob<Catalog>('../locales/*/*.json', { import: 'default' });
const sharedCatalogs = import.meta.glob<Catalog>('../../../../packages/shared/src/locales/*/*.json', {
  import: 'default',
});

function findLoader(language: string, namespace: string): CatalogLoader | undefined {
  const suffix = `/locales/${language}/${namespace}.json`;
  const shared = (sharedNamespaces as readonly string[]).includes(namespace) || namespace === appMessagesNamespace;
  const catalogs = shared ? sharedCatalogs : appCatalogs;
  const path = Object.keys(catalogs).find((key) => key.endsWith(suffix));
  return path ? catalogs[path] : undefined;
}

const catalogBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const loader = findLoader(language, namespace);
    if (!loader) {
      callback(null, {});
      return;
    }
    loader().then(
      (catalog) => callback(null, catalog),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** `es-AR` → `es`; anything else → `en` (the spec's fallback). */
export function supportedLanguage(value: string | null | undefined): Language {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : 'en';
}

function applyDocumentLanguage(language: string): void {
  const lang = supportedLanguage(language);
  // Numbers typed into forms are read as this language writes them ("12.500,50" in Spanish).
  setTypingLanguage(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = textDirection(lang);
}

/**
 * `?lng=` is an explicit choice: an unsupported value means English (the fallback), not the
 * browser's language further down the detection order. The built-in detectors are registered in
 * `init`, so the override has to come after it.
 */
class StrictQueryDetector extends LanguageDetector {
  override init(...args: Parameters<LanguageDetector['init']>): void {
    super.init(...args);
    this.addDetector({
      name: 'querystring',
      lookup: (options) => {
        const value = new URLSearchParams(window.location.search).get(options.lookupQuerystring ?? 'lng');
        if (!value) return undefined;
        return isLanguage(value.toLowerCase().split(/[-_]/)[0]) ? value : 'en';
      },
    });
  }
}

/** What an entry starts with: the staff app's namespaces by default, the portal's own (portal/main.tsx). */
export interface I18nStart {
  ns: readonly string[];
  defaultNS: string;
  /** Where a missing key is looked up next; false for none. */
  fallbackNS: string | false;
}

const staffStart: I18nStart = { ns: namespaces, defaultNS: 'common', fallbackNS: appMessagesNamespace };

export async function initI18n(start: I18nStart = staffStart): Promise<typeof i18n> {
  const detector = new StrictQueryDetector();

  i18n.on('languageChanged', applyDocumentLanguage);

  await i18n
    .use(catalogBackend)
    .use(detector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...languages],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      // English for anything unsupported; a supported language loads only its own catalogs
      // (all four have the same keys, a unit test makes sure).
      fallbackLng: (code: string | undefined) => (isLanguage(code?.toLowerCase().split(/[-_]/)[0]) ? [] : ['en']),
      ns: [...start.ns],
      defaultNS: start.defaultNS,
      fallbackNS: start.fallbackNS,
      interpolation: { escapeValue: false },
      returnNull: false,
      // The language is detected inside init(), not a tick later: the router starts loading the
      // page's namespaces right after (main.tsx), and they must be the visitor's language's.
      initAsync: false,
      detection: {
        order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
        lookupQuerystring: 'lng',
        lookupCookie: 'i18next',
        lookupLocalStorage: languageStorageKey,
        lookupSessionStorage: languageStorageKey,
        caches: ['localStorage'],
      },
      react: { useSuspense: false },
    });

  applyDocumentLanguage(i18n.resolvedLanguage ?? i18n.language);
  return i18n;
}

export { i18n };
