import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { focusNextField } from '../lib/form-keys';

/**
 * The one autocomplete of the app (WAI-ARIA combobox with a listbox popup, "list" autocomplete):
 * a text field whose suggestions are chosen with the mouse or the keyboard.
 *
 * - ArrowDown opens the list (highlighting the first suggestion) and moves down; ArrowUp moves up
 *   (both wrap). The highlight is `aria-activedescendant`: the focus stays in the field.
 * - Enter picks the highlighted suggestion. Without one it closes the list, or (closed) moves on
 *   to the next field. Enter never submits the form around it.
 * - Escape closes the list (and only the list: a dialog around it stays open). Tab leaves the field
 *   and closes the list without picking. Typing reopens it and clears the highlight.
 *
 * The caller owns the text and the query; this component owns the keys, the highlight and the
 * roles. Suggestions are laid out by `renderItem` (see `ComboboxOptionText`).
 */
export interface ComboboxProps<T> {
  id?: string;
  value: string;
  onInputChange: (text: string) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: readonly T[];
  itemKey: (item: T) => string;
  /** The suggestion's name (`data-name`, for tests and people reading the DOM). */
  itemName: (item: T) => string;
  renderItem: (item: T, active: boolean) => ReactNode;
  onPick: (item: T) => void;
  /** The list's accessible name. */
  listLabel: string;
  /** Nothing to show yet (the first answer is on its way). */
  pending?: boolean;
  /** A newer answer is on its way (the list shown is the previous one). */
  busy?: boolean;
  pendingText: ReactNode;
  emptyText: ReactNode;
  emptyTestId?: string;
  /** Characters typed before the list is offered (0: on focus). */
  minLength?: number;
  type?: 'text' | 'search';
  placeholder?: string;
  className?: string;
  invalid?: boolean;
  describedBy?: string | undefined;
  ariaLabel?: string;
  testId?: string;
  inputTestId?: string;
  optionTestId?: string;
}

export function Combobox<T>({
  id,
  value,
  onInputChange,
  open,
  onOpenChange,
  items,
  itemKey,
  itemName,
  renderItem,
  onPick,
  listLabel,
  pending = false,
  busy = false,
  pendingText,
  emptyText,
  emptyTestId,
  minLength = 1,
  type = 'text',
  placeholder,
  className = '',
  invalid = false,
  describedBy,
  ariaLabel,
  testId,
  inputTestId,
  optionTestId = 'combobox-option',
}: ComboboxProps<T>) {
  const ownId = useId();
  const inputId = id ?? `${ownId}-input`;
  const listId = `${ownId}-list`;
  const optionId = (key: string) => `${ownId}-option-${key}`;
  const [activeKey, setActiveKey] = useState<string | null>(null);

  const shown = open && value.trim().length >= minLength;
  const expanded = shown && !pending && items.length > 0;
  const message = shown && !expanded ? (pending ? pendingText : emptyText) : null;
  // The highlight follows the suggestion, not its place: a newer answer without it clears it.
  const activeIndex = activeKey === null ? -1 : items.findIndex((item) => itemKey(item) === activeKey);
  const active = expanded && activeIndex >= 0 ? items[activeIndex] : undefined;

  useEffect(() => {
    if (active === undefined) return;
    document.getElementById(optionId(itemKey(active)))?.scrollIntoView({ block: 'nearest' });
  });

  const close = () => {
    setActiveKey(null);
    onOpenChange(false);
  };
  const pick = (item: T) => {
    setActiveKey(null);
    onPick(item);
    onOpenChange(false);
  };
  const move = (step: 1 | -1) => {
    if (items.length === 0) return;
    const from = active === undefined ? (step === 1 ? -1 : 0) : activeIndex;
    const next = items[(from + step + items.length) % items.length];
    if (next !== undefined) setActiveKey(itemKey(next));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!shown) {
          onOpenChange(true);
          const first = event.key === 'ArrowDown' ? items[0] : items[items.length - 1];
          setActiveKey(first !== undefined && value.trim().length >= minLength ? itemKey(first) : null);
          return;
        }
        move(event.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      case 'Enter': {
        // Never the form's submission: pick, close, or move on.
        event.preventDefault();
        if (active !== undefined) pick(active);
        else if (shown) close();
        else focusNextField(event.currentTarget);
        return;
      }
      case 'Escape': {
        if (!shown) return;
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      }
      case 'Tab': {
        if (shown) close();
        return;
      }
      default:
    }
  };

  return (
    <div className="combobox" data-testid={testId}>
      <input
        id={inputId}
        type={type}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={active !== undefined ? optionId(itemKey(active)) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-label={ariaLabel}
        className={`form-control${invalid ? ' is-invalid' : ''}${className ? ` ${className}` : ''}`}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        data-testid={inputTestId}
        onChange={(event) => {
          setActiveKey(null);
          onInputChange(event.target.value);
          onOpenChange(true);
        }}
        onFocus={() => {
          if (minLength === 0) onOpenChange(true);
        }}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      {shown ? (
        // The pointer never takes the focus from the field (a click picks; the scrollbar scrolls).
        // biome-ignore lint/a11y/noStaticElementInteractions: only keeps the focus in the field; the keys are the field's.
        <div className="combobox-popup" onMouseDown={(event) => event.preventDefault()}>
          {expanded ? (
            <div
              id={listId}
              role="listbox"
              aria-label={listLabel}
              aria-busy={busy || undefined}
              className="combobox-list"
            >
              {items.map((item) => {
                const key = itemKey(item);
                const isActive = active !== undefined && itemKey(active) === key;
                return (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox field's (aria-activedescendant).
                  <div
                    key={key}
                    id={optionId(key)}
                    role="option"
                    tabIndex={-1}
                    aria-selected={isActive}
                    className={`combobox-option${isActive ? ' active' : ''}`}
                    data-testid={optionTestId}
                    data-name={itemName(item)}
                    onMouseMove={() => (isActive ? undefined : setActiveKey(key))}
                    onClick={() => pick(item)}
                  >
                    {renderItem(item, isActive)}
                  </div>
                );
              })}
            </div>
          ) : (
            <div className="combobox-message" role="status" data-testid={pending ? undefined : emptyTestId}>
              {message}
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A suggestion's text: the name on its own line and the detail (active principle, concentration,
 * code…) under it, with an optional aside (a stock badge) on the right. Read aloud as two phrases.
 */
export function ComboboxOptionText({ name, detail, aside }: { name: string; detail?: string; aside?: ReactNode }) {
  return (
    <span className="combobox-option-text">
      <span className="combobox-option-main">
        <span className="combobox-option-name" data-testid="option-name">
          {name}
        </span>
        {detail ? (
          <>
            <span className="visually-hidden">, </span>
            <span className="combobox-option-detail" data-testid="option-detail">
              {detail}
            </span>
          </>
        ) : null}
      </span>
      {aside ? <span className="combobox-option-aside">{aside}</span> : null}
    </span>
  );
}
