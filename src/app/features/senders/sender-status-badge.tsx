import { Badge } from '@mantine/core';

/** Status `"1"` is active (docs/api-conventions.md); anything else is shown as inactive. */
export function SenderStatusBadge({ status }: { status: string }) {
  return status === '1' ? (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      Inactive
    </Badge>
  );
}
