import { IconTools } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { PageHeader } from '../../components/page-header';
import { sectionAt } from '../../lib/sections';

/** A part of the product whose pages are not built yet: said plainly, with no made-up data. */
export default function UnavailablePage() {
  const section = sectionAt(useLocation().pathname);
  const label = section?.label ?? 'This page';
  return (
    <>
      <PageHeader title={label} />
      <EmptyPanel
        icon={<IconTools />}
        title={`${label} are not available in this version of Herald yet.`}
        description="The service may already offer them through its API; this dashboard does not show them yet."
      />
    </>
  );
}
