import { Alert, Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconHourglassHigh, IconX } from '@tabler/icons-react';
import { useId, useState } from 'react';
import type { Approval, Campaign } from '../../api/gen/types.gen';
import { formatCount, formatTimestamp } from '../../lib/format';
import type { Role } from '../../lib/roles';
import type { ApprovalVerdict } from './campaign-mutations';

type ApprovalStatus = Approval['status'];

// The theme darkens (light scheme) or lightens (dark) an outline's colour to 4.5:1; violet is told apart from Sending's orange.
const BADGES: Record<Exclude<ApprovalStatus, 'not_required'>, { label: string; color: string; icon: typeof IconCheck }> = {
  pending: { label: 'Awaiting approval', color: 'violet', icon: IconHourglassHigh },
  approved: { label: 'Approved', color: 'teal', icon: IconCheck },
  rejected: { label: 'Rejected', color: 'red', icon: IconX },
};

// A badge keeps its whole words: in a narrow table column it must not shrink to "AWAITING AP…".
const WHOLE = { root: { flexShrink: 0 }, label: { overflow: 'visible' } } as const;

/** The approval state, for campaigns that need one (nothing for `not_required`). */
export function ApprovalBadge({ status }: { status: ApprovalStatus }) {
  if (status === 'not_required') return null;
  const { label, color, icon: Icon } = BADGES[status];
  return (
    <Badge color={color} variant="outline" styles={WHOLE} leftSection={<Icon size={10} />}>
      {label}
    </Badge>
  );
}

/** Who looks at the campaign: the signed-in user and their role in the campaign's team. */
export interface ApprovalViewer {
  /** Undefined until the user is loaded. */
  userUuid: string | undefined;
  role: Role | undefined;
  teamName: string;
}

/**
 * Undefined when the viewer may approve or reject (an admin other than the member who asked, as the
 * service checks); otherwise who may, in one sentence.
 */
export function whoMayDecide(approval: Pick<Approval, 'requested_by'>, viewer: ApprovalViewer): string | undefined {
  const requester = approval.requested_by;
  if (requester && requester.uuid === viewer.userUuid) {
    return viewer.role === 'admin'
      ? `Another admin of ${viewer.teamName} must approve or reject it: no one decides on their own request.`
      : `An admin of ${viewer.teamName} must approve or reject it.`;
  }
  if (viewer.role === 'admin') return undefined;
  const other = requester ? ` other than ${requester.name}` : '';
  const yours = viewer.role ? `; you have the ${viewer.role} role` : '';
  return `Only an admin of ${viewer.teamName}${other} can approve or reject it${yours}.`;
}

function Comment({ comment }: { comment: string }) {
  if (!comment) return null;
  return (
    <Paper withBorder p="sm" radius="sm" bg="var(--herald-page)">
      <Text size="xs" c="dimmed" fw={500}>
        Comment
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {comment}
      </Text>
    </Paper>
  );
}

type ApprovalCampaign = Pick<Campaign, 'approval' | 'is_locked' | 'status' | 'expiry_date'>;

interface CampaignApprovalPanelProps {
  campaign: ApprovalCampaign;
  viewer: ApprovalViewer;
  /** Whether the viewer may edit the campaign (an edit asks for approval again). */
  canEdit: boolean;
  /** Approves or rejects; rejections are reported by the caller. */
  onDecide: (verdict: ApprovalVerdict, comment: string) => Promise<unknown>;
  /** Whether the campaign's send time has passed (it then starts as soon as it is approved). */
  sendTimePassed?: boolean;
}

/** Where a campaign that needs an admin's approval stands, and for an admin who may decide, the decision. */
export function CampaignApprovalPanel({ campaign, viewer, canEdit, onDecide, sendTimePassed }: CampaignApprovalPanelProps) {
  const headingId = useId();
  const { approval } = campaign;
  if (approval.status === 'not_required') return null;

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={2} size="h4" id={headingId}>
            Approval
          </Title>
          <ApprovalBadge status={approval.status} />
        </Group>
        {approval.status === 'pending' ? (
          <PendingApproval campaign={campaign} viewer={viewer} onDecide={onDecide} sendTimePassed={sendTimePassed} />
        ) : (
          <DecidedApproval campaign={campaign} viewer={viewer} canEdit={canEdit} />
        )}
      </Stack>
    </Paper>
  );
}

/** A member named as the viewer reads them: "you" for themselves. */
function nameOf(member: Approval['requested_by'], viewer: ApprovalViewer, unknown: string): string {
  if (!member) return unknown;
  return member.uuid === viewer.userUuid ? 'you' : member.name;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function PendingApproval({ campaign, viewer, onDecide, sendTimePassed }: Omit<CampaignApprovalPanelProps, 'canEdit'>) {
  const { approval } = campaign;
  const [comment, setComment] = useState('');
  const [deciding, setDeciding] = useState<ApprovalVerdict>();
  const reason = whoMayDecide(approval, viewer);

  const decide = async (verdict: ApprovalVerdict) => {
    setDeciding(verdict);
    try {
      await onDecide(verdict, comment);
    } catch {
      // The caller said why; the comment stays for another try.
    } finally {
      setDeciding(undefined);
    }
  };

  return (
    <>
      {approval.notice && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Its audience grew: nothing was sent">
          {approval.notice}
        </Alert>
      )}
      <Text size="sm">
        {approval.notice ? 'Waiting for approval again' : `${capitalised(nameOf(approval.requested_by, viewer, 'a member'))} asked for approval`}
        {approval.requested_at && ` ${approval.notice ? 'since' : 'on'} ${formatTimestamp(approval.requested_at)}`}. The campaign does not start, even once its
        send time has passed, until an admin approves it.
      </Text>
      {sendTimePassed && (
        <Text size="sm">
          Its send time has passed: once approved it starts at once, as long as that is before its expiry ({formatTimestamp(campaign.expiry_date)}).
        </Text>
      )}
      {reason ? (
        <Text size="sm" c="dimmed" role="note">
          {reason}
        </Text>
      ) : (
        <Stack gap="sm" maw={640}>
          <Textarea
            label="Comment"
            description={`Optional: why, for ${approval.requested_by?.name ?? 'the member who asked'}.`}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={1000}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
          <Group gap="sm">
            <Button
              leftSection={<IconCheck size={16} />}
              onClick={() => void decide('approve')}
              loading={deciding === 'approve'}
              disabled={deciding === 'reject'}
            >
              Approve
            </Button>
            <Button
              color="red"
              variant="light"
              leftSection={<IconX size={16} />}
              onClick={() => void decide('reject')}
              loading={deciding === 'reject'}
              disabled={deciding === 'approve'}
            >
              Reject
            </Button>
          </Group>
        </Stack>
      )}
    </>
  );
}

function DecidedApproval({ campaign, viewer, canEdit }: Omit<CampaignApprovalPanelProps, 'onDecide'>) {
  const { approval } = campaign;
  const approved = approval.status === 'approved';
  const decider = nameOf(approval.decided_by, viewer, 'an admin');
  const editable = canEdit && !campaign.is_locked && campaign.status === 0;

  return (
    <>
      <Text size="sm">
        {approved ? 'Approved' : 'Rejected'} by {decider} on {formatTimestamp(approval.decided_at)}
        {approval.requested_by && `, asked by ${nameOf(approval.requested_by, viewer, '')}`}.
      </Text>
      {approved && approval.recipients !== null && (
        <Text size="sm">
          The approval covers {formatCount(approval.recipients)} recipients: if the audience has grown past that when sending starts, nothing is sent and it
          waits for an approval again.
        </Text>
      )}
      <Comment comment={approval.comment} />
      {approved ? (
        editable && (
          <Text size="sm" c="dimmed">
            Saving a change to the campaign asks for approval again.
          </Text>
        )
      ) : (
        <Text size="sm" c="dimmed">
          {editable ? 'It will not start. Change it and save it to ask for approval again.' : 'It will not start.'}
        </Text>
      )}
    </>
  );
}
