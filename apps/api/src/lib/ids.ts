import { v7 } from 'uuid';

/** A new UUID v7: time-ordered, so primary-key indexes stay compact (ARCHITECTURE §4). */
export function newId(): string {
  return v7();
}
