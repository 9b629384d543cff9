import { ActionIcon, Popover, Radio, Stack, useComputedColorScheme, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

const CHOICES: { value: MantineColorScheme; label: string; description?: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'auto', label: 'System', description: "Follows your device's setting." },
];

/**
 * The header's colour scheme choice: light, dark, or the system's (the default). Mantine remembers
 * it in localStorage (src/app/color-scheme.ts). Radios: the chosen one has the focus when the choice
 * opens, arrows choose, Escape closes.
 */
export function ColorSchemeControl() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const shown = useComputedColorScheme('light');
  const chosen = CHOICES.find((choice) => choice.value === colorScheme) ?? CHOICES[2]!;

  return (
    <Popover position="bottom-end" shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>
        <ActionIcon variant="default" size="lg" aria-label={`Colour scheme: ${chosen.label}`}>
          {shown === 'dark' ? <IconMoon size={18} stroke={1.6} /> : <IconSun size={18} stroke={1.6} />}
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Radio.Group label="Colour scheme" value={colorScheme} onChange={(value) => setColorScheme(value as MantineColorScheme)}>
          <Stack gap="xs" mt="xs">
            {CHOICES.map(({ value, label, description }) => (
              <Radio key={value} value={value} label={label} description={description} data-autofocus={value === colorScheme || undefined} />
            ))}
          </Stack>
        </Radio.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
