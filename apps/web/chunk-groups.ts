import type { Plugin, Rollup } from 'vite';

/*
 * Few, larger chunks (issue 34, mobile Lighthouse).
 *
 * Left to itself the bundler cuts one chunk per set of importers: a signed-in page fetched ~80
 * scripts of 1–3 KB each. Over HTTP/1.1 a browser opens 6 connections per host, so on a phone's
 * network those requests queue in waves of a round trip each (about 1.5 s of a 6 s LCP in
 * `npm run bench -- web`). Three groups instead:
 *
 * - `start`: what the sign-in page runs (the entry, its layout, the page). Every signed-in page
 *   needs nearly all of it too; the sign-in page downloads nothing else (150 KB budget,
 *   `npm run bench bundle`).
 * - `public`: what the other public pages (sign-up, password, the appointment links, the
 *   waiting-list offer's link) share with the rest, so a patient opening a reminder's link does
 *   not download the signed-in app.
 * - `app`: what two or more signed-in screens share and no public page needs.
 *
 * A screen's own code stays in its chunk, and so do the libraries only a screen or two load on
 * demand (the calendar, the charts), with whatever only they import.
 *
 * The patient portal (issue 37, `portal.html`) is a second entry with a budget of its own (120 KB):
 * it must never download one of the groups above, which hold the staff app's pages. What it shares
 * with the staff app leaves those groups for two of its own:
 *
 * - `entry-shared`: what the portal shares with the sign-in page (React, i18next, the HTTP client); both
 *   first pages load it.
 * - the rest it shares with the staff app (zod, the contracts) is split by the bundler by who
 *   imports it, so a portal page loads only what it uses.
 */

const entryModule = /[\\/]src[\\/]main\.tsx$/;
/** The patient portal's own modules (its entry, src/portal/main.tsx, among them). */
const portalModule = /[\\/]src[\\/]portal[\\/]/;
/** The sign-in page's modules start from the entry, its layout and the page. */
const signInRoots = [
  entryModule,
  /[\\/]src[\\/]pages[\\/]auth[\\/]sign-in\.tsx$/,
  /[\\/]src[\\/]app[\\/]layouts[\\/]auth-layout\.tsx$/,
];
/** Every public page's modules: the sign-in page's and the other pages a visitor reaches signed out. */
const publicRoots = [
  ...signInRoots,
  /[\\/]src[\\/]pages[\\/]auth[\\/]/,
  /[\\/]src[\\/]pages[\\/]appointment-links\.tsx$/,
  /[\\/]src[\\/]pages[\\/]waiting-list-offer\.tsx$/,
  /[\\/]src[\\/]pages[\\/]not-found\.tsx$/,
];
/** The application's own modules (and the shared package's). */
const applicationModule = /[\\/](?:apps[\\/]web|packages[\\/]shared)[\\/]src[\\/]/;
/** Libraries loaded on demand by one or two screens: they, and what only they import, keep their chunks. */
const onDemandLibrary = /[\\/]node_modules[\\/](?:chart\.js|react-big-calendar)[\\/]/;
/** Translation catalogs: one chunk per language and namespace, loaded on demand (lib/i18n.ts). */
const catalog = /[\\/]locales[\\/][^\\/]+[\\/][^\\/]+\.json$/;
/**
 * Libraries whose index only re-exports its modules (a barrel), by the name they are imported as.
 * Through a barrel only the modules a module names are followed: the icon library's index imports
 * all its ~1,700 icons, and react-i18next's its <Trans> with an HTML parser that only the sign-up
 * and password pages use, not the sign-in page.
 */
const barrels: readonly { specifier: string; index: RegExp }[] = [
  { specifier: 'lucide-react', index: /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/ },
  { specifier: 'react-i18next', index: /[\\/]react-i18next[\\/]dist[\\/]es[\\/]index\.js$/ },
];

/** A barrel's `export { default as Eye, default as EyeIcon } from './icons/eye.mjs'`, as name → file. */
function filesByExportedName(indexCode: string, indexId: string): Map<string, string> {
  const folder = indexId.slice(0, indexId.lastIndexOf('/') + 1);
  const files = new Map<string, string>();
  for (const [, names, file] of indexCode.matchAll(/export\s*\{([^}]*)\}\s*from\s*['"]\.\/([^'"]+)['"]/g)) {
    for (const name of (names ?? '').split(',')) files.set(name.replace(/.*\bas\s+/, '').trim(), `${folder}${file}`);
  }
  return files;
}

/** The names a module imports from `specifier`. */
function namedImports(code: string, specifier: string): string[] {
  const statement = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${specifier}['"]`, 'g');
  return [...code.matchAll(statement)].flatMap(([, names]) =>
    (names ?? '').split(',').map((name) => name.replace(/^\s*(\S+)\s+as\s+\S+\s*$/, '$1').trim()),
  );
}

/** What modules reach through static imports, through a barrel only what they name. */
function staticImports(context: Rollup.PluginContext) {
  const ids = [...context.getModuleIds()];
  const barrelFiles = new Map<string, { specifier: string; files: Map<string, string> }>();
  for (const { specifier, index } of barrels) {
    const id = ids.find((candidate) => index.test(candidate));
    if (id) barrelFiles.set(id, { specifier, files: filesByExportedName(context.getModuleInfo(id)?.code ?? '', id) });
  }
  return (roots: (id: string) => boolean, skip: (id: string) => boolean = () => false): Set<string> => {
    const reached = new Set<string>();
    const queue = ids.filter(roots);
    while (queue.length) {
      const id = queue.pop() as string;
      if (reached.has(id) || skip(id)) continue;
      reached.add(id);
      const info = context.getModuleInfo(id);
      for (const imported of info?.importedIds ?? []) {
        const barrel = barrelFiles.get(imported);
        if (!barrel) queue.push(imported);
        else
          queue.push(
            ...namedImports(info?.code ?? '', barrel.specifier).flatMap((name) => barrel.files.get(name) ?? []),
          );
      }
    }
    return reached;
  };
}

export function chunkGroups(): Plugin {
  let signIn = new Set<string>();
  let publicPages = new Set<string>();
  let besideOnDemandLibraries = new Set<string>();
  let portal = new Set<string>();
  return {
    name: 'odontia-chunk-groups',
    apply: 'build',
    buildEnd() {
      const reach = staticImports(this);
      signIn = reach((id) => signInRoots.some((root) => root.test(id)));
      publicPages = reach((id) => publicRoots.some((root) => root.test(id)));
      // What the application imports without going through an on-demand library.
      besideOnDemandLibraries = reach(
        (id) => applicationModule.test(id),
        (id) => onDemandLibrary.test(id),
      );
      portal = reach((id) => portalModule.test(id));
    },
    outputOptions(options) {
      const bundled = (id: string) => !id.startsWith('\0') && !id.includes('?') && !catalog.test(id);
      // The staff app's groups never hold what the portal loads.
      const staffOnly = (id: string) => bundled(id) && !portal.has(id);
      // Each group's modules are chosen by the sets above, dependencies included: none is pulled
      // into a group by an importer (a public page must not import the signed-in app's chunk).
      options.codeSplitting = {
        includeDependenciesRecursively: false,
        groups: [
          {
            name: 'entry-shared',
            priority: 5,
            test: (id) => bundled(id) && portal.has(id) && signIn.has(id) && !entryModule.test(id),
          },
          {
            name: 'start',
            priority: 3,
            test: (id) => staffOnly(id) && signIn.has(id) && !entryModule.test(id),
          },
          {
            name: 'public',
            priority: 2,
            minShareCount: 2,
            test: (id) => staffOnly(id) && publicPages.has(id),
          },
          {
            name: 'app',
            priority: 1,
            minShareCount: 2,
            test: (id) => staffOnly(id) && besideOnDemandLibraries.has(id) && !onDemandLibrary.test(id),
          },
        ],
      };
      return options;
    },
  };
}
