import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { type DocumentNamespace, type LineFieldHelpers, LineOrigin } from './document-lines';

/** What the side's list offers for the text typed so far (its price list, its catalogue). */
export interface ConceptOptions<Item> {
  items: readonly Item[];
  pending: boolean;
  busy: boolean;
}

/**
 * A line's concept: free text, or an entry of the side's list picked as you type (`useOptions`
 * searches it with the typed text once the list is open); under it, where the line comes from.
 */
export function LineConceptField<Item>({
  namespace,
  fields,
  label,
  text,
  onType,
  useOptions,
  itemKey,
  itemName,
  renderItem,
  onPick,
  texts,
  minLength,
  testIds,
  origin,
}: {
  namespace: DocumentNamespace;
  fields: LineFieldHelpers;
  label: string;
  text: string;
  /** Typing forgets the entry picked before: the line is free text again. */
  onType: (text: string) => void;
  useOptions: (text: string, open: boolean) => ConceptOptions<Item>;
  itemKey: (item: Item) => string;
  itemName: (item: Item) => string;
  renderItem: (item: Item) => ReactNode;
  onPick: (item: Item) => void;
  texts: { list: string; empty: string; placeholder: string };
  minLength?: number;
  testIds: { input: string; option: string };
  origin: { listed: boolean; text: string; testId: string };
}) {
  const { t } = useTranslation(namespace);
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(text, 250);
  const options = useOptions(debounced.trim(), open);
  const { id } = fields;
  const invalid = Boolean(fields.control('description')['aria-invalid']);
  return (
    <>
      {fields.label('description', label, true)}
      <Combobox<Item>
        id={`${id}-description`}
        value={text}
        onInputChange={onType}
        open={open}
        onOpenChange={setOpen}
        items={options.items}
        itemKey={itemKey}
        itemName={itemName}
        renderItem={renderItem}
        onPick={onPick}
        listLabel={texts.list}
        pending={options.pending}
        busy={options.busy}
        pendingText={t('form.searching')}
        emptyText={texts.empty}
        minLength={minLength}
        placeholder={texts.placeholder}
        invalid={invalid}
        describedBy={invalid ? `${id}-description-error` : undefined}
        inputTestId={testIds.input}
        optionTestId={testIds.option}
      />
      {fields.message('description')}
      <LineOrigin
        namespace={namespace}
        listed={origin.listed}
        listedText={origin.text}
        listedTestId={origin.testId}
        typed={Boolean(text.trim())}
      />
    </>
  );
}
