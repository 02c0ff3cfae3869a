import type { KeyboardEvent } from 'react';

/** Input types that are not text to type in: Enter on them is the browser's (a click). */
const clickTypes = new Set(['button', 'submit', 'reset', 'image', 'file']);

/** The fields of the form a keyboard user moves through (no buttons: Enter never lands on Save). */
function fieldsOf(form: HTMLFormElement): HTMLElement[] {
  return Array.from(form.querySelectorAll<HTMLElement>('input, select, textarea')).filter((element) => {
    if (element instanceof HTMLInputElement && (element.type === 'hidden' || clickTypes.has(element.type))) {
      return false;
    }
    if ((element as HTMLInputElement).disabled || element.tabIndex < 0) return false;
    // Shown (not display:none, not inside a closed part of the form).
    return element.getClientRects().length > 0;
  });
}

/** Moves the focus to the form's next field after `from`, if there is one (else it stays). */
export function focusNextField(from: HTMLElement): void {
  const form = from.closest('form');
  if (!form) return;
  const fields = fieldsOf(form);
  const next = fields[fields.indexOf(from) + 1];
  next?.focus();
}

/**
 * `onKeyDown` of a clinical record's form: Enter in a field never submits it (the browser's
 * implicit submission would save the record with whatever is half typed); it moves on to the next
 * field instead. Saving takes the Save button (or Enter on it). Enter keeps its meaning where it
 * has one: a new line in a textarea, a click on a button, a choice in a picker (which handles it
 * first and marks the event as handled).
 */
export function keepEnterInForm(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || clickTypes.has(target.type)) return;
  event.preventDefault();
  focusNextField(target);
}
