import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

export const TEMPLATE_LOCKED_MESSAGE = 'This template is used by a campaign that is sending; it can be edited when the campaign has finished.';

export function TemplateLockAlert() {
  return (
    <Alert color="gray" variant="light" icon={<IconLock />} title="Locked while sending" role="status">
      {TEMPLATE_LOCKED_MESSAGE}
    </Alert>
  );
}
