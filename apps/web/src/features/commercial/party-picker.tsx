import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Combobox } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/** What every party picker takes from its form: the field's id, text, messages and what to do on a pick. */
export interface PartyPickerProps<Item> {
  id: string;
  value: string;
  onText: (text: string) => void;
  onPick: (item: Item) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  ariaLabel?: string;
  placeholder?: string;
}

/**
 * A party of a commercial document (a provider, a customer), searched as you type: the search
 * (`useSearch`), how an option reads and the texts are the domain's; the rest is the same.
 */
export function PartyPicker<Item>({
  id,
  value,
  onText,
  onPick,
  invalid = false,
  describedBy,
  ariaLabel,
  placeholder,
  useSearch,
  itemKey,
  itemName,
  renderItem,
  texts,
  testIdPrefix,
}: PartyPickerProps<Item> & {
  useSearch: (q: string, enabled: boolean) => UseQueryResult<{ data: Item[] }>;
  itemKey: (item: Item) => string;
  itemName: (item: Item) => string;
  renderItem: (item: Item) => ReactNode;
  texts: { list: string; searching: string; unavailable: string; none: string; placeholder: string };
  /** `provider`, `customer`: `provider-input`, `customer-option`. */
  testIdPrefix: string;
}) {
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(value, 250);
  const query = useSearch(debounced.trim(), open);
  return (
    <Combobox<Item>
      id={id}
      value={value}
      onInputChange={onText}
      open={open}
      onOpenChange={setOpen}
      items={query.data?.data ?? []}
      itemKey={itemKey}
      itemName={itemName}
      renderItem={renderItem}
      onPick={onPick}
      listLabel={texts.list}
      pending={query.isPending}
      busy={query.isFetching}
      pendingText={texts.searching}
      emptyText={query.isError ? texts.unavailable : texts.none}
      minLength={0}
      placeholder={placeholder ?? texts.placeholder}
      invalid={invalid}
      describedBy={describedBy}
      {...(ariaLabel ? { ariaLabel } : {})}
      inputTestId={`${testIdPrefix}-input`}
      optionTestId={`${testIdPrefix}-option`}
    />
  );
}
