import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Permission } from '../../lib/roles';
import { useTeamRole } from './use-team-role';

interface RoleNoticeProps {
  /** What the page's actions need. */
  needs: Permission;
  /** What an admin-only page changes, e.g. "senders". */
  subject?: string;
}

/**
 * The one sentence that says why a page's actions are missing for the current role (nothing when
 * the role may use them). A note, not an alert: it is read with the page, not announced.
 */
export function RoleNotice({ needs, subject }: RoleNoticeProps) {
  const explanation = useTeamRole().explain(needs, subject);
  if (!explanation) return null;
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle />} role="note" mb="lg">
      {explanation}
    </Alert>
  );
}

interface RoleRequiredProps extends RoleNoticeProps {
  /** Where to go instead, e.g. the list the form belongs to. */
  back: { href: string; label: string };
  children: ReactNode;
}

/** A create or edit form the role could not save: the explanation and a way back instead of a form that would fail. */
export function RoleRequired({ needs, subject, back, children }: RoleRequiredProps) {
  const { can } = useTeamRole();
  if (can(needs)) return children;
  return (
    <>
      <RoleNotice needs={needs} subject={subject} />
      <Anchor component={Link} to={back.href} size="sm">
        {back.label}
      </Anchor>
    </>
  );
}
