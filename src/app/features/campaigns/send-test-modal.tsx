import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Campaign } from '../../api/gen/types.gen';
import { isApiError } from '../../api/api-error';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { NoRepliesNotice } from '../../components/sender-field';
import { useSendTestCampaign } from './campaign-mutations';
import { DURATIONS, serviceTimestamp } from '../../lib/service-zone';

interface SendTestModalProps {
  campaign: Pick<Campaign, 'name' | 'sender' | 'template_uuid'>;
  /** The `{{field}}` names of the campaign's template, one input each. */
  fieldNames: readonly string[];
  timeZone: string;
  opened: boolean;
  onClose: () => void;
}

/** Sends the campaign's message to one number, as a one-recipient test campaign due a minute from now (service zone). */
export function SendTestModal({ campaign, fieldNames, timeZone, opened, onClose }: SendTestModalProps) {
  const sendTest = useSendTestCampaign();
  const [number, setNumber] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [numberError, setNumberError] = useState<string>();

  const close = () => {
    setNumberError(undefined);
    onClose();
  };

  const send = async () => {
    if (!number.trim()) return setNumberError('Enter the number to send the test to.');
    const now = new Date();
    const customFields = Object.fromEntries(fieldNames.map((name) => [name, fields[name] ?? '']).filter(([, value]) => value !== ''));
    try {
      await sendTest.mutateAsync({
        name: `${campaign.name.slice(0, 240)} (test)`,
        sender: campaign.sender,
        template_uuid: campaign.template_uuid,
        scheduled_send_date: serviceTimestamp(timeZone, DURATIONS.minute, now),
        expiry_date: serviceTimestamp(timeZone, DURATIONS.minute + DURATIONS.day, now),
        contact_number: number.trim(),
        custom_fields: customFields,
      });
      notifySuccess(`A test of ${campaign.name} goes to ${number.trim()} in about a minute.`);
      setNumber('');
      setFields({});
      close();
    } catch (error) {
      const [message] = isApiError(error) ? (error.fieldErrors.contact_number ?? []) : [];
      if (message) setNumberError(message);
      else notifyFailure('The test could not be sent', error);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Send a test">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            One message with this campaign’s template and sender, to one number, about a minute from now.
          </Text>
          <NoRepliesNotice sender={campaign.sender} />
          <TextInput
            label="Phone number"
            description="International (+44…) or national form."
            placeholder="+447700900123"
            autoComplete="off"
            inputMode="tel"
            withAsterisk
            data-autofocus
            value={number}
            onChange={(event) => {
              setNumber(event.currentTarget.value);
              setNumberError(undefined);
            }}
            error={numberError}
          />
          {fieldNames.length > 0 && (
            <Stack gap="xs">
              <Text size="sm" fw={500}>
                Fields of the message
              </Text>
              {fieldNames.map((name) => (
                <TextInput
                  key={name}
                  label={name}
                  description={`Fills {{${name}}}; left empty it is sent as a blank.`}
                  autoComplete="off"
                  value={fields[name] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setFields((current) => ({ ...current, [name]: value }));
                  }}
                />
              ))}
            </Stack>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={sendTest.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={sendTest.isPending}>
              Send test
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
