import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { RoutesSection } from '../../features/sms-routes/routes-section';
import { paths } from '../../paths';

/** The routes editor on a page of its own, until the Sending page holds it beside the connections. */
export default function SendingRoutesPage() {
  return (
    <>
      <PageHeader title="Sending routes" description="Which of the team’s SMS connections carry the messages to each country." />
      <RoleRequired needs="admin" subject="routes" back={{ href: paths.home.getHref(), label: 'Back to the overview' }}>
        <RoutesSection />
      </RoleRequired>
    </>
  );
}
