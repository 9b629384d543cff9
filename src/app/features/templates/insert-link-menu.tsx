import { Button, Menu, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';

interface InsertLinkMenuProps {
  /** Names of the template's links. */
  linkNames: readonly string[];
  onInsert: (shorthand: string) => void;
  disabled?: boolean;
  /** Shown when there is no link to insert, e.g. that the template must be saved first. */
  emptyMessage: string;
}

/** Inserts `::NAME::` at the cursor for one of the template's links. */
export function InsertLinkMenu({ linkNames, onInsert, disabled, emptyMessage }: InsertLinkMenuProps) {
  return (
    <Menu position="bottom-start" withArrow shadow="md" width={260}>
      <Menu.Target>
        <Button variant="default" size="xs" leftSection={<IconLink size={14} />} disabled={disabled}>
          Insert link
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {linkNames.length === 0 ? (
          <Text size="xs" c="dimmed" p="xs">
            {emptyMessage}
          </Text>
        ) : (
          <>
            <Menu.Label>Links of this template</Menu.Label>
            {linkNames.map((name) => (
              <Menu.Item key={name} onClick={() => onInsert(`::${name}::`)} ff="monospace">
                ::{name}::
              </Menu.Item>
            ))}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
