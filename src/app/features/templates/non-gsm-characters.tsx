import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { IconWand } from '@tabler/icons-react';
import type { GsmLookalike } from '../../../shared/sms';
import type { FlaggedCharacter } from './message-draft';

const SHOWN = 24;

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Invisible characters are named by code point, since there is nothing to see. */
function visible(character: string): string {
  return /^[\s\u200b\u2060\ufeff\u00ad]$/u.test(character) ? codePoint(character) : character;
}

interface NonGsmCharactersProps {
  characters: readonly FlaggedCharacter[];
  lookalikes: readonly GsmLookalike[];
  onReplaceLookalikes: () => void;
  disabled?: boolean;
}

/** Names every character that makes the message Unicode (70 per SMS), and offers the one-click fix. */
export function NonGsmCharacters({ characters, lookalikes, onReplaceLookalikes, disabled }: NonGsmCharactersProps) {
  if (characters.length === 0 && lookalikes.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      p="sm"
      title={`${characters.length} ${characters.length === 1 ? 'character makes' : 'characters make'} this a Unicode message`}
    >
      <Group gap={6} mb="xs" role="list" aria-label="Characters outside GSM">
        {characters.slice(0, SHOWN).map(({ character, position }) => (
          <Badge
            key={position}
            role="listitem"
            variant="white"
            color="orange"
            tt="none"
            size="lg"
            title={codePoint(character)}
            aria-label={`${character} (${codePoint(character)}) at position ${position}`}
          >
            <Text span fw={700} fz="sm" mr={6}>
              {visible(character)}
            </Text>
            <Text span fz="xs" c="dimmed">
              at {position}
            </Text>
          </Badge>
        ))}
        {characters.length > SHOWN && (
          <Text size="xs" c="dimmed">
            and {characters.length - SHOWN} more
          </Text>
        )}
      </Group>
      {lookalikes.length > 0 ? (
        <Group gap="sm">
          <Button size="xs" color="orange" leftSection={<IconWand size={14} />} onClick={onReplaceLookalikes} disabled={disabled}>
            Replace look-alikes
          </Button>
          <Text size="xs" c="dimmed">
            {lookalikes.length} {lookalikes.length === 1 ? 'is' : 'are'} typographic (curly quotes, dashes, special spaces) and can become plain GSM text.
          </Text>
        </Group>
      ) : (
        <Text size="xs" c="dimmed">
          None of them has a plain GSM look-alike: remove them to send up to 160 characters per SMS.
        </Text>
      )}
    </Alert>
  );
}
