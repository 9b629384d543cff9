import { Button } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyPanel } from '../components/empty-panel';
import { PageHeader } from '../components/page-header';
import { paths } from '../paths';

export default function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyPanel
        icon={<IconMapOff />}
        title="There is no page at this address."
        description="The link may be mistyped or out of date."
        action={
          <Button component={Link} to={paths.home.getHref()} variant="light">
            Go to the dashboard
          </Button>
        }
      />
    </>
  );
}
