import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconLinkOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import type { InvitationAccepted, InvitationPreview } from '../../api/gen/types.gen';
import { describeError, isApiError } from '../../api/api-error';
import { ErrorState } from '../../components/error-state';
import { FormError } from '../../components/form-error';
import { PublicPage } from '../../components/public-page';
import { JoinTeamForm, type NewAccount } from '../../features/team/join-team-form';
import { withArticle } from '../../features/team/member-roles';
import { useAcceptInvitation } from '../../features/team/team-mutations';
import { invitationLinkQueries } from '../../features/team/team-queries';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import type { SignInState } from '../sign-in/sign-in.page';

const SIGN_IN_LINK = { href: paths.signIn.getHref(), label: 'Sign in to Herald' };

/** The e-mailed link, `/invitation#<secret>`: the fragment is not sent with the request for the page. */
export default function InvitationPage() {
  const secret = useLocation().hash.replace(/^#/, '').trim();
  // Another link pasted into the same tab changes only the fragment: it starts afresh.
  return <Invitation key={secret} secret={secret} />;
}

function Invitation({ secret }: { secret: string }) {
  const link = useQuery({ ...invitationLinkQueries.detail(secret), enabled: secret !== '' });
  const acceptance = useAcceptInvitation();

  if (acceptance.data) return <Joined accepted={acceptance.data} />;
  // A used, withdrawn or expired link is 404, whether it is found so on opening or on accepting.
  const linkGone = secret === '' || (isApiError(link.error) && link.error.status === 404) || (isApiError(acceptance.error) && acceptance.error.status === 404);
  if (linkGone) return <InvalidLink />;

  if (link.isPending) {
    return (
      <PublicPage title="Join a team on Herald" tabTitle="Invitation">
        <Center py="lg">
          <Loader aria-label="Reading the invitation" />
        </Center>
      </PublicPage>
    );
  }
  if (link.isError) {
    return (
      <PublicPage title="Join a team on Herald" tabTitle="Invitation" footerLink={SIGN_IN_LINK}>
        <ErrorState title="The invitation could not be read." error={link.error} onRetry={() => void link.refetch()} />
      </PublicPage>
    );
  }

  const invitation = link.data;
  const accept = (account: Partial<NewAccount> = {}) => acceptance.mutateAsync({ token: secret, ...account });
  return (
    <PublicPage
      title={`Join ${invitation.team_name} as ${withArticle(invitation.role)}`}
      tabTitle="Invitation"
      description={`For ${invitation.email}. The link works once, until ${formatTimestamp(invitation.expires_at)}.`}
      footerLink={SIGN_IN_LINK}
    >
      {invitation.existing_user ? (
        <ExistingAccount invitation={invitation} pending={acceptance.isPending} error={acceptance.error} onJoin={() => void accept().catch(() => {})} />
      ) : (
        <JoinTeamForm email={invitation.email} onSubmit={accept} />
      )}
    </PublicPage>
  );
}

interface ExistingAccountProps {
  invitation: InvitationPreview;
  pending: boolean;
  error: unknown;
  onJoin: () => void;
}

/** The address has an account already: it joins as it is, with its own password. */
function ExistingAccount({ invitation, pending, error, onJoin }: ExistingAccountProps) {
  return (
    <Stack gap="md">
      <FormError message={error ? describeError(error) : undefined} />
      <Text size="sm">
        <strong>{invitation.email}</strong> already has a Herald account. Join {invitation.team_name} with it, then sign in as usual with your password.
      </Text>
      <Button onClick={onJoin} loading={pending} fullWidth>
        Join the team
      </Button>
    </Stack>
  );
}

function Joined({ accepted }: { accepted: InvitationAccepted }) {
  const { team, email } = accepted;
  const signInState: SignInState = { notice: `You joined ${team.name}. Sign in with ${email}.` };
  return (
    <PublicPage title={`Welcome to ${team.name}`} tabTitle="Invitation accepted">
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCircleCheck />} role="status" title="You joined the team">
          You are now {withArticle(team.role)} of {team.name}. Sign in with <strong>{email}</strong> to start.
        </Alert>
        <Button component={Link} to={paths.signIn.getHref()} state={signInState} fullWidth>
          Sign in
        </Button>
      </Stack>
    </PublicPage>
  );
}

function InvalidLink() {
  return (
    <PublicPage title="This invitation cannot be used" tabTitle="Invitation" footerLink={SIGN_IN_LINK}>
      <Alert color="orange" variant="light" icon={<IconLinkOff />} title="The link is not valid any more">
        It was already used, withdrawn, or it has expired (a link works for 7 days). Ask an admin of the team for a new invitation.
      </Alert>
    </PublicPage>
  );
}
