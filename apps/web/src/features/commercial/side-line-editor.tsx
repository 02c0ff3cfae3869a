import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AmountColumns,
  DocumentLineEditor,
  type DocumentLineProps,
  type LineFieldHelpers,
} from './document-lines';
import type { DocumentSideBase } from './document-side';
import type { TypedAmounts } from './line-amounts';
import { type ConceptOptions, LineConceptField } from './line-concept';

/**
 * What one side fixes about its lines' editor: its texts, test ids, columns and the list its concept
 * searches (its entries show and fill their `name`).
 */
export interface LineEditorSide<Line, Item extends { name: string }> {
  /** The side's documents: its texts' namespace, and its test ids' prefix (`<prefix>-line`). */
  document: DocumentSideBase;
  columns: AmountColumns;
  /** Keys of the side's namespace: the concept's label and its list's texts. */
  conceptKeys: { label: string; list: string; empty: string; placeholder: string };
  /** What typing in the concept clears: the entry picked before (the line is free text again). */
  unpicked: Partial<Line>;
  useOptions: (text: string, open: boolean) => ConceptOptions<Item>;
  itemKey: (item: Item) => string;
  /** Characters typed before the list searches (the combobox's default when left out). */
  minLength?: number;
  testIds: { input: string; option: string };
}

/**
 * A document's line on one side: the side's concept searched in its list (`side`), how an entry
 * shows and what picking it fills (`renderItem`, `onPick`), where the line comes from (`origin`)
 * and the side's own columns (`extra`, `after`).
 */
export function SideLineEditor<Line extends TypedAmounts & { description: string }, Item extends { name: string }>({
  side,
  renderItem,
  onPick,
  origin,
  extra,
  after,
  ...props
}: DocumentLineProps<Line> & {
  side: LineEditorSide<Line, Item>;
  renderItem: (item: Item) => ReactNode;
  onPick: (item: Item) => void;
  origin: { listed: boolean; text: string; testId: string };
  extra: (fields: LineFieldHelpers) => ReactNode;
  after?: (fields: LineFieldHelpers) => ReactNode;
}) {
  const { line, onChange } = props;
  const { namespace, testIdPrefix } = side.document;
  const { t } = useTranslation(namespace);
  return (
    <DocumentLineEditor
      {...props}
      namespace={namespace}
      testId={`${testIdPrefix}-line`}
      columns={side.columns}
      concept={(fields) => (
        <LineConceptField<Item>
          namespace={namespace}
          fields={fields}
          label={t(side.conceptKeys.label)}
          text={line.description}
          onType={(text) => onChange({ ...side.unpicked, description: text })}
          useOptions={side.useOptions}
          itemKey={side.itemKey}
          itemName={(item) => item.name}
          renderItem={renderItem}
          onPick={onPick}
          texts={{
            list: t(side.conceptKeys.list),
            empty: t(side.conceptKeys.empty),
            placeholder: t(side.conceptKeys.placeholder),
          }}
          minLength={side.minLength}
          testIds={side.testIds}
          origin={origin}
        />
      )}
      extra={extra}
      after={after}
    />
  );
}
