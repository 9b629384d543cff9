import { Alert, Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/api-error';
import type { ContactErasure } from '../../api/gen/types.gen';
import { useEraseContact } from './contacts-directory-mutations';
import { formatPhoneNumber } from '../../lib/phone-number';
import { sameDigits } from './phone-number';

interface EraseContactModalProps {
  phoneNumber: string;
  /** The number is in default_optouts: it stays there, bare, so that it is never texted again. */
  optedOut: boolean;
  teamName: string;
  opened: boolean;
  onClose: () => void;
  onErased: (erasure: ContactErasure) => void;
}

/**
 * Erasure cannot be undone, so the number must be typed before the button works (as a large
 * campaign's recipient count must be). The service's refusal (409 while something is still to be
 * sent to the number) shows in the dialog, which stays open.
 */
export function EraseContactModal({ opened, onClose, ...props }: EraseContactModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Erase this contact" size="lg" closeButtonProps={{ 'aria-label': 'Keep the contact' }}>
      <EraseContactForm {...props} onClose={onClose} />
    </Modal>
  );
}

function EraseContactForm({ phoneNumber, optedOut, teamName, onClose, onErased }: Omit<EraseContactModalProps, 'opened'>) {
  const erasure = useEraseContact();
  const [typed, setTyped] = useState('');
  const number = formatPhoneNumber(phoneNumber);
  const confirmed = sameDigits(typed, phoneNumber);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed || erasure.isPending) return;
    erasure.mutate(phoneNumber, { onSuccess: onErased });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          Erase <strong>{number}</strong> from {teamName}? This cannot be undone.
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>The number leaves every group, with its custom fields.</List.Item>
          <List.Item>
            A random token replaces it in the messages, clicks, inbound messages, replies and opt-out history, and the message texts go. Reports keep their
            totals.
          </List.Item>
          {optedOut ? (
            <List.Item>
              <strong>It opted out, so it stays suppressed:</strong> the number stays in default_optouts, without its fields, and is never texted again, even if
              it is imported again.
            </List.Item>
          ) : (
            <List.Item>It has not opted out: if it is added to a group again later, it can be texted again.</List.Item>
          )}
        </List>
        <Text size="sm" c="dimmed">
          If the person asked for a copy of their data, download it first.
        </Text>
        <TextInput
          label={`Type ${number} to confirm`}
          autoComplete="off"
          inputMode="tel"
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          data-autofocus
        />
        {erasure.isError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle />} role="alert" title="The contact could not be erased">
            {describeError(erasure.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={erasure.isPending}>
            Keep it
          </Button>
          <Button type="submit" color="red" disabled={!confirmed} loading={erasure.isPending}>
            Erase contact
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
