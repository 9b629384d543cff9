import { Anchor, AppShell, Burger, Center, Group, Loader, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { AppNavbar } from '../../components/app-navbar';
import { ColorSchemeControl } from '../../components/color-scheme-control';
import { ErrorState } from '../../components/error-state';
import { HeraldLogo } from '../../components/herald-logo';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { TeamSwitcher } from '../../features/auth/team-switcher';
import { useTeamRole } from '../../features/auth/use-team-role';
import { UserMenu } from '../../features/auth/user-menu';
import { inboxQueries } from '../../features/inbox/inbox-queries';
import { plural } from '../../lib/format';
import { sectionAt, sections } from '../../lib/sections';
import { useSession } from '../../lib/session';
import { paths } from '../../paths';

/** Everything behind sign-in: header, navbar, and the page. Without a session it sends the user to sign in, and back here after. */
export default function AppShellLayout() {
  const session = useSession();
  const location = useLocation();

  if (!session) return <Navigate to={paths.signIn.getHref(location.pathname + location.search)} replace />;
  return <SignedInShell />;
}

function SignedInShell() {
  const [navbarOpened, { toggle: toggleNavbar, close: closeNavbar }] = useDisclosure();
  const user = useQuery(currentUserQueries.me());
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // After a team switch, a page of the previous team's resource makes no sense: go to its section's list.
  const leaveTeamPage = () => void navigate(sectionAt(pathname)?.href ?? paths.home.getHref());
  // A section the role may not use is not listed (its page still says why, if reached by its address).
  const { can } = useTeamRole();
  const shownSections = sections.filter((section) => !section.needs || can(section.needs));
  // The inbox's unread conversations beside its entry, read again as the inbox is (new messages within 5 s).
  const unread = useQuery({ ...inboxQueries.unreadCount(), enabled: user.isSuccess });
  const counts =
    unread.data === undefined
      ? {}
      : { [paths.inbox.list.getHref()]: { value: unread.data, label: plural(unread.data, 'unread conversation', 'unread conversations') } };

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !navbarOpened } }} padding={{ base: 'md', sm: 'xl' }}>
      <AppShell.Header>
        {/* The first stop of the Tab key: past the header and the navbar's fourteen links to the page. */}
        <a
          className="herald-skip-link"
          href="#main"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById('main')?.focus();
          }}
        >
          Skip to the page
        </a>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navbarOpened} onClick={toggleNavbar} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Anchor component={Link} to={paths.home.getHref()} underline="never" c="inherit" aria-label="Herald">
              <Group gap={8} wrap="nowrap">
                <HeraldLogo />
                {/* On a phone the header keeps its room for the team and the account: the logo alone. */}
                <Text fw={700} size="lg" visibleFrom="xs">
                  Herald
                </Text>
              </Group>
            </Anchor>
          </Group>
          {user.data && (
            <Group gap="xs" wrap="nowrap">
              <ColorSchemeControl />
              <TeamSwitcher user={user.data} onSwitched={leaveTeamPage} />
              <UserMenu user={user.data} />
            </Group>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <AppNavbar sections={shownSections} onNavigate={closeNavbar} counts={counts} />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} bg="var(--herald-page)" style={{ outline: 'none' }}>
        {user.isPending ? (
          <Center h={240}>
            <Loader aria-label="Loading your account" />
          </Center>
        ) : user.isError ? (
          <ErrorState title="Your account could not be loaded." error={user.error} onRetry={() => void user.refetch()} />
        ) : (
          <Outlet />
        )}
      </AppShell.Main>
    </AppShell>
  );
}
