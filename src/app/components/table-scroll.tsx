import { Table } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';

interface TableScrollProps {
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  children: ReactNode;
}

/**
 * A table that scrolls sideways when its box is narrower than `minWidth` (a phone), with a shadow on
 * each side that has more columns: a phone shows no scrollbar until one scrolls, and a column cut at
 * the edge would otherwise look like the table's end. The container is focusable (the theme), so the
 * keyboard scrolls it too.
 */
export function TableScroll({ minWidth, children }: TableScrollProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const before = element.scrollLeft > 1;
      const after = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setMore((current) => (current.before === before && current.after === after ? current : { before, after }));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    if (element.firstElementChild) resizes.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      resizes.disconnect();
    };
  }, []);

  return (
    <div className="herald-table-scroll">
      <Table.ScrollContainer ref={scroller} minWidth={minWidth} type="native">
        {children}
      </Table.ScrollContainer>
      <div className="herald-table-scroll-shadow" data-side="start" data-visible={more.before || undefined} aria-hidden />
      <div className="herald-table-scroll-shadow" data-side="end" data-visible={more.after || undefined} aria-hidden />
    </div>
  );
}
