import { MultiSelect, Select, type MultiSelectProps, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { countryName, PHONE_COUNTRIES } from '../../shared/phone/phone-countries';

/** Every country Herald can read national numbers of, by its full name (searchable), its code the value. */
function countryOptions() {
  return PHONE_COUNTRIES.map((code) => ({ value: code, label: `${countryName(code)} (${code})` })).sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

type CountrySelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable'> & { value: string; onChange: (code: string) => void };

/** A country picker: type "Germany" (or "DE") and choose it; never free text. */
export function CountrySelect({ value, onChange, ...props }: CountrySelectProps) {
  const data = useMemo(() => countryOptions(), []);
  return (
    <Select
      {...props}
      data={data}
      value={value}
      onChange={(code) => code && onChange(code)}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No country by that name or code"
      limit={30}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

type CountryMultiSelectProps = Omit<MultiSelectProps, 'data' | 'value' | 'onChange' | 'searchable'> & {
  value: string[];
  onChange: (codes: string[]) => void;
};

/** Options listed at once (typing finds the others): a list of some 240 countries is slow to open and to read. */
const COUNTRIES_SHOWN = 40;

/** Several countries, each found by its name or code as in CountrySelect; never free text. */
export function CountryMultiSelect({ value, onChange, ...props }: CountryMultiSelectProps) {
  const data = useMemo(() => countryOptions(), []);
  return (
    <MultiSelect
      {...props}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      hidePickedOptions
      nothingFoundMessage="No country by that name or code"
      limit={COUNTRIES_SHOWN}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
