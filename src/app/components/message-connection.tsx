import { Text, VisuallyHidden } from '@mantine/core';
import type { ReportConnection } from '../api/gen/types.gen';

/** The providers' names as their consoles write them. */
const PROVIDER_NAMES: Record<string, string> = {
  twilio: 'Twilio',
  vonage: 'Vonage',
  infobip: 'Infobip',
  plivo: 'Plivo',
  telnyx: 'Telnyx',
  sinch: 'Sinch',
  smpp: 'SMPP',
  simulator: 'Simulator',
};

/** Reasons Herald writes itself (not a provider's): never shown as a provider's error. */
const HERALD_REASONS = new Set([
  'pending',
  'opted_out',
  'stopped',
  'quiet_hours',
  'local_time',
  'frequency_cap',
  'invalid_number',
  'Expired',
  'in_doubt',
  'no_route',
]);

/** A message as the reports and the contact page list it: `connection` is there only when one of the team's connections carried it. */
export type CarriedMessage = { connection?: ReportConnection | null; provider_message_id?: string | null };

/** Whether any of the messages went through one of the team's SMS connections (the tables then show the connection columns). */
export const anyCarried = (messages: readonly object[]): boolean => messages.some((message) => 'connection' in message);

/** The provider's error for a message a connection carried: its reason, unless Herald wrote that reason itself. */
export function providerErrorOf(message: CarriedMessage, reason: string | null | undefined): string | null {
  if (!('connection' in message) || !reason || HERALD_REASONS.has(reason)) return null;
  return reason;
}

function Dash() {
  return (
    <Text size="sm" c="dimmed" span>
      —
    </Text>
  );
}

/** The connection that carried a message (its provider beside it) and the provider's id for the message beneath. */
export function MessageConnection({ message }: { message: CarriedMessage }) {
  if (!('connection' in message)) return <Dash />;
  const { connection, provider_message_id: providerId } = message;
  return (
    <>
      {connection ? (
        <Text size="sm" maw={200} style={{ overflowWrap: 'anywhere' }}>
          {connection.name}{' '}
          <Text span size="xs" c="dimmed">
            ({PROVIDER_NAMES[connection.provider] ?? connection.provider})
          </Text>
        </Text>
      ) : (
        <Text size="sm" c="dimmed" fs="italic">
          Deleted connection
        </Text>
      )}
      {providerId && (
        // Positioned, so the visually hidden label (absolutely positioned) stays inside the table's
        // scrolling box instead of widening the page on a phone.
        <Text size="xs" c="dimmed" ff="monospace" truncate="end" maw={160} title={providerId} pos="relative">
          <VisuallyHidden>Provider’s message id: </VisuallyHidden>
          {providerId}
        </Text>
      )}
    </>
  );
}

/** A provider's error code as it came (e.g. Twilio's `21610`), or a dash. */
export function ProviderError({ error }: { error: string | null }) {
  if (!error) return <Dash />;
  return (
    <Text size="sm" ff="monospace" maw={180} style={{ overflowWrap: 'anywhere' }}>
      {error}
    </Text>
  );
}
