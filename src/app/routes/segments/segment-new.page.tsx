import type { QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { SegmentInput } from '../../../shared/contract/segments';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { SegmentForm } from '../../features/segments/segment-form';
import { SegmentLiveCount } from '../../features/segments/segment-live-count';
import { useCreateSegment } from '../../features/segments/segment-mutations';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchSegmentFormData, useSegmentFormData } from './use-segment-form-data';

export function prefetch(queryClient: QueryClient) {
  prefetchSegmentFormData(queryClient);
}

export default function SegmentNewPage() {
  const navigate = useNavigate();
  const creation = useCreateSegment();
  const { pickers } = useSegmentFormData();

  const create = (input: SegmentInput): Promise<unknown> =>
    creation.mutateAsync(input, {
      onSuccess: (created) => {
        notifySuccess(`The segment ${created.name} was created.`);
        void navigate(paths.segments.detail.getHref(created.uuid));
      },
      onError: (error) => notifyFailure('The segment could not be created', error),
    });

  return (
    <>
      <PageHeader title="New segment" description="Add conditions; the count of contacts who match follows as you build." />
      <RoleRequired needs="edit" back={{ href: paths.segments.list.getHref(), label: 'Back to segments' }}>
        <SegmentForm
          pickers={pickers}
          submitLabel="Create segment"
          onSubmit={create}
          onCancel={() => void navigate(paths.segments.list.getHref())}
          aside={(draft) => <SegmentLiveCount draft={draft} />}
        />
      </RoleRequired>
    </>
  );
}
