import type { ReactNode } from 'react';

/** A column heading: its text and, for amounts, `text-end` (or the classes that hide it on phones). */
export interface HeadCell {
  label: ReactNode;
  className?: string;
}

/**
 * A scrolling table with a caption for screen readers and one row of column headings; `children`
 * are its bodies (`tbody`, `tfoot`). `className` is the table's, whole. With `scrollLabel` the
 * wrapper is a labelled region the keyboard can reach, so a table wider than a phone scrolls
 * sideways without a mouse.
 */
export function CaptionedTable({
  wrapperClassName = 'table-responsive',
  className,
  testId,
  caption,
  head,
  scrollLabel,
  children,
}: {
  wrapperClassName?: string;
  className: string;
  testId?: string;
  caption: ReactNode;
  head: HeadCell[];
  scrollLabel?: string;
  children: ReactNode;
}) {
  const table = (
    <table className={className} data-testid={testId}>
      <caption className="visually-hidden">{caption}</caption>
      <TableHead cells={head} />
      {children}
    </table>
  );
  if (scrollLabel) {
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone is reached by keyboard.
      <section tabIndex={0} className={wrapperClassName} aria-label={scrollLabel}>
        {table}
      </section>
    );
  }
  return <div className={wrapperClassName}>{table}</div>;
}

/** A table's one row of column headings (also for a table without a caption). */
export function TableHead({ cells }: { cells: HeadCell[] }) {
  return (
    <thead>
      <tr>
        {cells.map((cell, index) => (
          // The headings never move: their place is their key.
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of headings
          <th key={index} scope="col" className={cell.className}>
            {cell.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
