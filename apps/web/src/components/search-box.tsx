import { Search } from 'lucide-react';
import { type InputHTMLAttributes, useId } from 'react';

/** A list's search input with its magnifier icon and a (visually hidden) label. */
export function SearchBox({ label, className, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={`list-search${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Search size={16} aria-hidden="true" className="list-search-icon" />
      <input id={id} type="search" className="form-control" {...input} />
    </div>
  );
}
