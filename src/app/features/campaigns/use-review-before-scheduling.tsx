import { Alert, Button, Divider, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { CampaignInput } from '../../../shared/contract';
import { ErrorState } from '../../components/error-state';
import { campaignQueries } from './campaign-queries';
import { CampaignReviewPanel } from './campaign-review-panel';
import { CampaignTestSends } from './campaign-test-sends';
import { formatCount } from '../../lib/format';

interface ReviewOptions {
  /** A saved campaign: its review (with its test sends) when the form holds what is saved; else a preview of the form. */
  saved?: { uuid: string; input: CampaignInput };
  timeZone: string;
  /** The user's own number (profile), where a test goes by default; '' when none. */
  ownNumber: string;
  /**
   * Saves what the form holds as a draft without leaving the page, so a test of it can be sent
   * from the review; resolves to the campaign's uuid.
   */
  saveDraft: (input: CampaignInput) => Promise<string>;
  /** The actual scheduling, once reviewed and confirmed. */
  onSchedule: (input: CampaignInput) => Promise<unknown>;
}

interface Pending {
  input: CampaignInput;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const sameCampaign = (a: CampaignInput, b: CampaignInput) => JSON.stringify({ ...a, is_draft: false }) === JSON.stringify({ ...b, is_draft: false });

/** The same message to the same people: only the times differ (as after "Send now"), so a test of one is a test of the other. */
function sameMessage(a: CampaignInput, b: CampaignInput): boolean {
  const strip = ({
    scheduled_send_date: _send,
    expiry_date: _expiry,
    scheduled_finish_date: _finish,
    pauses: _pauses,
    is_draft: _draft,
    ...rest
  }: CampaignInput) => JSON.stringify(rest);
  return strip(a) === strip(b);
}

/**
 * Scheduling through a review: `review(input)` opens it and settles when the person goes back
 * (resolved, nothing saved) or once the campaign is scheduled (resolved) or refused (rejected with
 * the service's error, so the form puts a 422 on its fields). Above the team's confirm threshold the
 * recipient count must be typed before "Schedule" is enabled; a blocking personalisation gap keeps it off.
 */
export function useReviewBeforeScheduling({ saved, timeZone, ownNumber, saveDraft, onSchedule }: ReviewOptions) {
  const [pending, setPending] = useState<Pending>();
  const [typed, setTyped] = useState('');
  const [scheduling, setScheduling] = useState(false);
  // A draft saved from this review, until the page's own `saved` has caught up with it.
  const [draft, setDraft] = useState<{ uuid: string; input: CampaignInput }>();
  const [savingDraft, setSavingDraft] = useState(false);
  const pendingRef = useRef<Pending>(undefined);

  const base = draft ?? saved;
  // The figures come from the stored campaign only when the form holds exactly what is stored.
  const exact = base !== undefined && pending !== undefined && sameCampaign(base.input, pending.input);
  // Tests can be sent from the stored campaign when it is the same message to the same people.
  const testable = base !== undefined && pending !== undefined && sameMessage(base.input, pending.input);
  const review = useQuery({ ...campaignQueries.review(base?.uuid ?? ''), enabled: testable });
  const preview = useQuery({ ...campaignQueries.preview(pending?.input ?? ({} as CampaignInput)), enabled: pending !== undefined && !exact });
  const shown = exact ? review : preview;

  const open = (input: CampaignInput) =>
    new Promise<void>((resolve, reject) => {
      const next = { input, resolve, reject };
      pendingRef.current = next;
      setTyped('');
      setDraft(undefined);
      setPending(next);
    });

  const saveForTests = async () => {
    const current = pendingRef.current;
    if (!current) return;
    setSavingDraft(true);
    try {
      const uuid = await saveDraft({ ...current.input, is_draft: true });
      setDraft({ uuid, input: current.input });
    } catch {
      // The page has said why (a toast); the review stays as it was.
    } finally {
      setSavingDraft(false);
    }
  };

  const close = () => {
    pendingRef.current?.resolve();
    pendingRef.current = undefined;
    setPending(undefined);
  };

  const data = shown.data;
  const total = data?.recipients.total ?? 0;
  const blocking = data?.coverage.some((field) => field.blocking) ?? false;
  const confirmed = !data?.confirm_required || typed.trim().replace(/[,\s]/g, '') === String(total);

  const schedule = async () => {
    const current = pendingRef.current;
    if (!current) return;
    setScheduling(true);
    try {
      await onSchedule({ ...current.input, is_draft: false });
      current.resolve();
    } catch (error) {
      current.reject(error);
    } finally {
      setScheduling(false);
      pendingRef.current = undefined;
      setPending(undefined);
    }
  };

  const modal = (
    <Modal opened={pending !== undefined} onClose={close} title="Review and schedule" size="lg" closeButtonProps={{ 'aria-label': 'Back to the form' }}>
      {shown.isPending ? (
        <Group justify="center" p="xl">
          <Loader size="sm" aria-label="Counting the recipients and the SMS parts" />
        </Group>
      ) : shown.isError ? (
        <ErrorState title="The review could not be made." error={shown.error} onRetry={() => void shown.refetch()} />
      ) : (
        <Stack gap="md">
          <CampaignReviewPanel review={shown.data} timeZone={timeZone} />
          <Divider />
          <div>
            <Title order={3} size="h5" mb={6}>
              Test sends
            </Title>
            {testable && base ? (
              <CampaignTestSends uuid={base.uuid} testSends={review.data?.test_sends ?? []} ownNumber={ownNumber} />
            ) : (
              <Group gap="sm" wrap="wrap">
                <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
                  {base ? 'Your changes are not saved yet: save them as a draft to send a test of them.' : 'Save it as a draft to send a test.'} Nothing goes to
                  the recipients until you schedule it.
                </Text>
                <Button variant="default" onClick={() => void saveForTests()} loading={savingDraft}>
                  Save draft and test
                </Button>
              </Group>
            )}
          </div>
          {blocking && (
            <Alert color="red" variant="light" role="alert" p="sm">
              It cannot be scheduled while a personalised field has no value for anyone and no fallback. Change the template or the groups.
            </Alert>
          )}
          {shown.data.confirm_required && (
            <TextInput
              label={`Type ${total} to confirm the number of recipients`}
              description={`It goes to ${formatCount(total)} people: type the number to schedule it.`}
              autoComplete="off"
              inputMode="numeric"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              data-autofocus
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={scheduling}>
              Back to the form
            </Button>
            <Button onClick={() => void schedule()} disabled={!confirmed || blocking} loading={scheduling}>
              Schedule
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );

  return { review: open, modal };
}
