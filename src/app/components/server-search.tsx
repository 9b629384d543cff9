import { MultiSelect, Select, type ComboboxItem, type MultiSelectProps, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';

/** How long a picker waits for the typing to stop before it asks the service. */
export const SEARCH_DEBOUNCE_MS = 250;

/** The text a picker searches the service for: what was typed, trimmed, once it has settled. */
export function useServerSearch() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  return { search, setSearch, debounced };
}

/** The service already filtered the options (`search` on its lists): show them as they came. */
export const SERVER_FILTERED: OptionsFilter = ({ options }) => options;

interface ServerSearchProps {
  /** What the service found for the text typed (or the first page before anything is typed). */
  data: readonly ComboboxItem[];
  /** Options that name chosen values the results may not hold (e.g. an older template, fetched by uuid). */
  known?: readonly ComboboxItem[];
  /** Called with the text to search for as the user types; without it the picker filters `data` itself. */
  onSearch?: (text: string) => void;
}

/**
 * `data`, and after it every chosen value that is not among it, by name: from `known`, or as it was
 * when it was picked. A chosen value nobody can name yet (its name still loading) is left out.
 */
function useWithChosen(data: readonly ComboboxItem[], known: readonly ComboboxItem[], remembered: ReadonlyMap<string, string>, chosen: readonly string[]) {
  return useMemo(() => {
    const present = new Set(data.map((option) => option.value));
    const names = new Map(known.map((option) => [option.value, option.label]));
    const missing = chosen
      .filter((value) => !present.has(value))
      .map((value) => ({ value, label: names.get(value) ?? remembered.get(value) }))
      .filter((option): option is ComboboxItem => option.label !== undefined);
    return [...data, ...missing];
  }, [data, known, remembered, chosen]);
}

/** Remembers the names of the options picked, so a pick stays named when the next search leaves it out. */
function useRememberedNames() {
  const [remembered, setRemembered] = useState<ReadonlyMap<string, string>>(new Map());
  const remember = (options: readonly ComboboxItem[]) =>
    setRemembered((current) => {
      const unknown = options.filter((option) => current.get(option.value) !== option.label);
      return unknown.length ? new Map([...current, ...unknown.map((option) => [option.value, option.label] as const)]) : current;
    });
  return { remembered, remember };
}

const NONE: readonly ComboboxItem[] = [];
const NO_VALUES: readonly string[] = [];

/** A searchable Select whose options the service finds as the user types; the chosen one keeps its name. */
export function ServerSearchSelect({
  data,
  known = NONE,
  onSearch,
  value,
  onChange,
  ...props
}: ServerSearchProps & Omit<SelectProps, 'data' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter'>) {
  const [searchValue, setSearchValue] = useState('');
  const { remembered, remember } = useRememberedNames();
  const chosen = useMemo(() => (value ? [value] : []), [value]);
  const options = useWithChosen(data, known, remembered, chosen);
  const chosenLabel = options.find((option) => option.value === value)?.label;
  return (
    <Select
      {...props}
      data={options}
      value={value}
      onChange={(picked, option) => {
        if (option) remember([option]);
        onChange?.(picked, option);
      }}
      searchable
      searchValue={searchValue}
      onSearchChange={(text) => {
        setSearchValue(text);
        // Showing the chosen option's name is not a search: the picker then offers the first page again.
        onSearch?.(text === chosenLabel ? '' : text);
      }}
      filter={onSearch ? SERVER_FILTERED : undefined}
    />
  );
}

/** A searchable MultiSelect whose options the service finds as the user types; every chosen one keeps its name. */
export function ServerSearchMultiSelect({
  data,
  known = NONE,
  onSearch,
  value,
  onChange,
  ...props
}: ServerSearchProps & Omit<MultiSelectProps, 'data' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter'>) {
  const [searchValue, setSearchValue] = useState('');
  const { remembered, remember } = useRememberedNames();
  const options = useWithChosen(data, known, remembered, value ?? NO_VALUES);
  return (
    <MultiSelect
      {...props}
      data={options}
      value={value}
      onChange={(picked) => {
        remember(options.filter((option) => picked.includes(option.value)));
        onChange?.(picked);
      }}
      searchable
      searchValue={searchValue}
      onSearchChange={(text) => {
        setSearchValue(text);
        onSearch?.(text);
      }}
      filter={onSearch ? SERVER_FILTERED : undefined}
    />
  );
}
