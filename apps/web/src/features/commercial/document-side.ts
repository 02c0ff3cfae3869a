import type { DocumentRef } from '@odontia/shared/schemas/commercial-documents';
import type { Page } from '@odontia/shared/schemas/common';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { DocumentNamespace } from './document-lines';
import type { PartyPickerProps } from './party-picker';
import type { FinaliseInput } from './side-queries';

/** The filters every list of documents has; a side adds its party's and names its dates. */
export interface DocumentListFilters {
  q: string;
  sort: string;
  documentType: string;
  status: string;
}

/** Who is on the other side of a document (a customer, a provider): how it is picked and shown. */
export interface DocumentPartySide<Item, Row> {
  Picker: ComponentType<PartyPickerProps<Item>>;
  /** The list's column (`customer`, `provider`) and the field's label key. */
  columnKey: string;
  labelKey: string;
  /** A row's party name. */
  nameOf: (row: Row) => string | null;
  /** The URL's filters that hold a party (a customer is one of `customerId` or `patientId`). */
  filterNames: readonly string[];
  /** The filters a picked party sets, and the name the picker then shows. */
  picked: (item: Item) => { filters: Record<string, string>; name: string };
  /** Whether a row is the party the URL filters by (its name refills the picker after a reload). */
  rowMatches: (row: Row, filters: Record<string, string>) => boolean;
  /** The list's party filter: its width and its texts' keys. */
  listFilter: { minWidth: string; clearKey: string; anyKey: string };
}

/** Where a side's documents are and what their texts and test ids are called. */
export interface DocumentSideBase {
  namespace: DocumentNamespace;
  /** `sale`, `purchase`: test ids read `<prefix>-row`, `<prefix>-status`… */
  testIdPrefix: string;
  /** `/sales`, `/purchases`: the list; `create`, `view/<id>` below it. */
  listPath: string;
  pathOf: (id: string) => string;
}

/** What a side's document view calls and says. */
export interface DocumentViewSide extends DocumentSideBase {
  view: {
    /** The step that makes a draft count: a sale's "issue", a purchase's "register". */
    useFinalise: (id: string) => UseMutationResult<{ code?: string }, Error, FinaliseInput>;
    final: { textKey: string; testId: string };
    useDelete: (id: string) => UseMutationResult<{ code: string }, Error, void>;
    numberTestId: string;
    /** A linked document's number as its side prints it (none for a draft). */
    refNumber: (document: DocumentRef) => string | null;
    /** The view of a payment or collection applied to the document (its id is appended). */
    movement: { path: string; textKey: string };
  };
}

/**
 * One side of the commercial documents (sales, purchases): its texts' namespace, routes, types and
 * states, API calls and party. The engine's screens are written once and read this; what only one
 * side has (a sale's integrity report, a purchase's orders) stays in that side's folder.
 */
export interface DocumentSide<Row extends { id: string }, Item, Filters extends DocumentListFilters>
  extends DocumentViewSide {
  types: readonly string[];
  statuses: readonly string[];
  party: DocumentPartySide<Item, Row>;
  list: {
    /** The number column's label key and what it shows. */
    numberLabelKey: string;
    numberText: (row: Row) => string | null;
    /** The URL's names of the date range. */
    dateNames: readonly [string, string];
    filtersOf: (values: Record<string, string>, search: string, sort: string) => Filters;
    useList: (query: Filters & { page: number; pageSize: number }) => UseQueryResult<Page<Row>>;
    /** The create button's test id, when tests look for it. */
    createTestId?: string;
    /** What else the list's toolbar offers before "create" (sales: the integrity report). */
    Tools?: ComponentType;
  };
}
