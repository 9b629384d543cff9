import { Box, Divider, Paper, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import type { MessagePiece } from './message-draft';

// The theme's phone colours (theme.ts), in the light and the dark scheme.
const PHONE = {
  background: 'var(--herald-phone-screen)',
  bubble: 'var(--herald-phone-bubble)',
} as const;

function Piece({ piece }: { piece: MessagePiece }) {
  switch (piece.kind) {
    case 'text':
      return <>{piece.sent}</>;
    case 'link':
      return (
        <Text span c="blue" td="underline" style={{ wordBreak: 'break-all' }}>
          {piece.sent}
        </Text>
      );
    case 'field':
      return (
        <Text
          span
          px={4}
          fz="xs"
          fw={600}
          bg="var(--mantine-color-indigo-light)"
          c="var(--mantine-color-indigo-light-color)"
          style={{ borderRadius: 4, border: '1px dashed var(--mantine-color-indigo-3)' }}
          title={piece.fallback === undefined ? "Filled from the contact's field" : `The contact's ${piece.name}, or this when they have none`}
        >
          {/* With a fallback, the preview shows what a contact without the field reads. */}
          {piece.fallback === undefined ? `{${piece.name}}` : piece.sent}
        </Text>
      );
    case 'missing-link':
      return (
        <Text
          span
          px={4}
          fz="xs"
          fw={600}
          bg="var(--mantine-color-red-light)"
          c="var(--mantine-color-red-light-color)"
          style={{ borderRadius: 4, border: '1px dashed var(--mantine-color-red-4)' }}
          title="No such link: sent as a blank space"
        >
          {`::${piece.name}::`}
        </Text>
      );
  }
}

interface SegmentProps {
  pieces: readonly MessagePiece[];
  index: number;
  count: number;
}

const nameOf = (piece: MessagePiece) => ('name' in piece ? piece.name : '');
const samePieces = (a: readonly MessagePiece[], b: readonly MessagePiece[]) =>
  a.length === b.length && a.every((piece, i) => piece.kind === b[i]!.kind && piece.sent === b[i]!.sent && nameOf(piece) === nameOf(b[i]!));

/** One part of the message; a keystroke usually changes one part, so the others are not drawn again. */
const Segment = memo(
  function Segment({ pieces, index, count }: SegmentProps) {
    return (
      <Box aria-label={`Segment ${index + 1} of ${count}`} role="group">
        {count > 1 && (
          <Divider
            my={index === 0 ? 0 : 6}
            mb={6}
            variant="dashed"
            labelPosition="left"
            label={
              <Text span fz={10} c="dimmed" tt="uppercase" fw={600}>
                Segment {index + 1}
              </Text>
            }
          />
        )}
        <Text size="sm" component="div" lh={1.5}>
          {pieces.map((piece, pieceIndex) => (
            <Piece key={pieceIndex} piece={piece} />
          ))}
        </Text>
      </Box>
    );
  },
  (before, after) => before.index === after.index && before.count === after.count && samePieces(before.pieces, after.pieces),
);

interface MessagePreviewProps {
  sender: string;
  segments: readonly (readonly MessagePiece[])[];
}

/** The message as a handset shows it: one bubble, its segments marked where the parts are cut. */
export function MessagePreview({ sender, segments }: MessagePreviewProps) {
  const empty = segments.every((segment) => segment.length === 0);
  return (
    <Paper radius={28} p="md" withBorder maw={380} mx="auto" bg={PHONE.background} aria-label="Message preview" role="region">
      <Stack gap={2} align="center" mb="md">
        <Box w={60} h={5} bg="var(--mantine-color-default-border)" style={{ borderRadius: 3 }} />
        <Text size="sm" fw={600} mt="xs">
          {sender.trim() || 'Sender'}
        </Text>
        <Text size="xs" c="dimmed">
          Text message
        </Text>
      </Stack>
      <Box
        bg={PHONE.bubble}
        p="sm"
        maw="88%"
        mih={120}
        style={{ borderRadius: '18px 18px 18px 4px', boxShadow: 'var(--mantine-shadow-xs)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {empty ? (
          <Text size="sm" c="dimmed" fs="italic">
            Your message appears here as you type.
          </Text>
        ) : (
          segments.map((segment, index) => <Segment key={index} pieces={segment} index={index} count={segments.length} />)
        )}
      </Box>
    </Paper>
  );
}
