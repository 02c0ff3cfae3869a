import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Names in Spanish order (issue 34): accent- and case-insensitive, ñ after n ("Álvarez",
 * "álvaro", "Gómez", "Gutiérrez", "Núñez", "Ñandú", "Oliva"). PGlite has no ICU and a server's
 * collations differ by installation, so the order is a kept key compared byte by byte:
 * `odontia_sort_key` (migration 0027) lower-cases a name and strips its accents, except ñ, which
 * becomes "n~" ('~' sorts after every letter: after "nz", before "o"). The lists' name indexes
 * are built on this very expression, so a page sorted by name walks its index.
 */
export function spanishKey(value: SQLWrapper): SQL {
  return sql`odontia_sort_key(${value}) collate "C"`;
}

/**
 * A key kept in a generated column (`odontia_sort_key(name)`, stored), compared the same way: the
 * patients', customers' and providers' names, whose lists, searches and current accounts sort
 * thousands of rows — no key computed per row read.
 */
export function keptKey(column: SQLWrapper): SQL {
  return sql`${column} collate "C"`;
}
