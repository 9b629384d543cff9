import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { ErrorState } from '../../components/error-state';
import { describeApprovalRule } from '../../features/team/approval-rule';
import { describeClickWindow, describeViewWindow } from '../../features/team/attribution-windows';
import { AttributionWindowsForm } from '../../features/team/attribution-windows-form';
import { AutomaticRepliesForm } from '../../features/team/automatic-replies-form';
import { REPLIES } from '../../features/team/automatic-replies';
import { describeCostEstimate } from '../../features/team/cost-estimate';
import { CostEstimateForm } from '../../features/team/cost-estimate-form';
import { describeFrequencyCap, FREQUENCY_CAP_COUNTS } from '../../features/team/frequency-cap';
import { FrequencyCapForm } from '../../features/team/frequency-cap-form';
import { describeDoubleOptIn } from '../../features/team/double-opt-in';
import { DoubleOptInForm } from '../../features/team/double-opt-in-form';
import { describeQuietHours } from '../../features/team/quiet-hours';
import { QuietHoursForm } from '../../features/team/quiet-hours-form';
import { describeConfirmThreshold } from '../../features/team/sending-safety';
import { SendingSafetyForm } from '../../features/team/sending-safety-form';
import { SettingsSummary } from '../../features/team/settings-summary';
import { PhoneNumbersForm } from '../../features/team/phone-numbers-form';
import { useUpdateTeamSettings } from '../../features/team/team-mutations';
import { teamQueries } from '../../features/team/team-queries';
import { describeTestNumbers } from '../../features/team/test-numbers';
import { TestNumbersForm } from '../../features/team/test-numbers-form';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { countryName } from '../../../shared/phone/phone-countries';

/** What each card saves, and how it tells that it did (or not). */
const CARDS = {
  safety: {
    failure: 'The sending safety settings could not be saved',
    success: (s: TeamSettings) => `${describeConfirmThreshold(s.confirm_threshold)} ${describeApprovalRule(s.approval_threshold)}`,
  },
  cost: { failure: 'The cost estimate could not be saved', success: (s: TeamSettings) => describeCostEstimate(s) },
  quiet: {
    failure: 'The quiet hours could not be saved',
    success: (s: TeamSettings) => `${describeQuietHours(s.quiet_hours)} Team time zone: ${s.time_zone}.`,
  },
  cap: { failure: 'The frequency cap could not be saved', success: (s: TeamSettings) => describeFrequencyCap(s.frequency_cap) },
  replies: { failure: 'The automatic replies could not be saved', success: () => 'The automatic replies are saved.' },
  tests: { failure: 'The test numbers could not be saved', success: (s: TeamSettings) => describeTestNumbers(s.test_numbers) },
  attribution: {
    failure: 'The attribution windows could not be saved',
    success: (s: TeamSettings) => `${describeClickWindow(s.click_window_days)} ${describeViewWindow(s.view_window_hours)}`,
  },
  consent: { failure: 'The double opt-in could not be saved', success: (s: TeamSettings) => describeDoubleOptIn(s.double_opt_in) },
  country: {
    failure: 'The default country could not be saved',
    success: (s: TeamSettings) => `National numbers are read as numbers of ${countryName(s.default_country)}.`,
  },
} as const;

/** The team's settings, one card a subject: admins change each on its own, everyone else reads them. */
export function TeamSettingsSection({ canChange }: { canChange: boolean }) {
  const settings = useQuery(teamQueries.settings());
  const update = useUpdateTeamSettings();

  const saverOf = (card: keyof typeof CARDS) => (input: TeamSettingsInput) =>
    update.mutateAsync(input, {
      onSuccess: (saved) => notifySuccess(CARDS[card].success(saved)),
      onError: (error) => notifyFailure(CARDS[card].failure, error),
    });

  return (
    <section aria-labelledby="settings-title">
      <Title order={2} size="h4" mb="sm" id="settings-title">
        Settings
      </Title>
      {settings.isPending ? (
        <Skeleton height={240} radius="md" />
      ) : settings.isError ? (
        <ErrorState title="The team’s settings could not be loaded." error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <Stack gap="lg">
          <SettingsCard id="sending-safety" title="Sending safety" intro="Checks before a large campaign goes out.">
            {canChange ? (
              <SendingSafetyForm settings={settings.data} onSubmit={saverOf('safety')} />
            ) : (
              <SettingsSummary
                items={[
                  { label: 'Confirming the recipient count', value: describeConfirmThreshold(settings.data.confirm_threshold) },
                  { label: 'Campaign approval', value: describeApprovalRule(settings.data.approval_threshold) },
                ]}
              />
            )}
          </SettingsCard>
          <SettingsCard
            id="cost-estimate"
            title="Cost estimate"
            intro="The campaign review multiplies this price by the SMS parts to send, to estimate what a campaign costs."
          >
            {canChange ? (
              <CostEstimateForm settings={settings.data} onSubmit={saverOf('cost')} />
            ) : (
              <SettingsSummary items={[{ label: 'Price', value: describeCostEstimate(settings.data) }]} />
            )}
          </SettingsCard>
          <SettingsCard
            id="quiet-hours"
            title="Quiet hours"
            intro="Quiet hours apply in each recipient’s local time, from their number: its area code in the US, Canada and Australia, else its country; where neither places it, the team time zone is used."
          >
            {canChange ? (
              <QuietHoursForm settings={settings.data} onSubmit={saverOf('quiet')} />
            ) : (
              <SettingsSummary
                items={[
                  { label: 'Quiet hours', value: describeQuietHours(settings.data.quiet_hours) },
                  { label: 'Team time zone', value: settings.data.time_zone },
                ]}
              />
            )}
          </SettingsCard>
          <SettingsCard
            id="frequency-cap"
            title="Frequency cap"
            intro={`How many marketing messages one number may get from the team in any period of so many days; a message over the cap is not sent. ${FREQUENCY_CAP_COUNTS}`}
          >
            {canChange ? (
              <FrequencyCapForm settings={settings.data} onSubmit={saverOf('cap')} />
            ) : (
              <SettingsSummary items={[{ label: 'Frequency cap', value: describeFrequencyCap(settings.data.frequency_cap) }]} />
            )}
          </SettingsCard>
          <SettingsCard
            id="phone-numbers"
            title="Phone numbers"
            intro="The country of numbers written without their country code, such as 07700 900123: imports start from it, and search reads numbers in it."
          >
            {canChange ? (
              <PhoneNumbersForm settings={settings.data} onSubmit={saverOf('country')} />
            ) : (
              <SettingsSummary items={[{ label: 'Default country', value: countryName(settings.data.default_country) }]} />
            )}
          </SettingsCard>
          <SettingsCard
            id="revenue-attribution"
            title="Revenue attribution"
            intro="Orders your shop reports (through the API or a shop connection) are credited to the campaign that led to them: its click first, else its delivered message."
          >
            {canChange ? (
              <AttributionWindowsForm settings={settings.data} onSubmit={saverOf('attribution')} />
            ) : (
              <SettingsSummary
                items={[
                  { label: 'Click window', value: describeClickWindow(settings.data.click_window_days) },
                  { label: 'View window', value: describeViewWindow(settings.data.view_window_hours) },
                ]}
              />
            )}
          </SettingsCard>
          <SettingsCard
            id="double-opt-in"
            title="Double opt-in"
            intro="Proof of consent for keyword sign-ups: on, a number that texts a keyword without having agreed before first gets “Reply YES to confirm”, and joins only after YES within 48 hours."
          >
            {canChange ? (
              <DoubleOptInForm settings={settings.data} onSubmit={saverOf('consent')} />
            ) : (
              <SettingsSummary items={[{ label: 'Double opt-in', value: describeDoubleOptIn(settings.data.double_opt_in) }]} />
            )}
          </SettingsCard>
          <SettingsCard
            id="automatic-replies"
            title="Automatic replies"
            intro="Texts sent back to a number that texts STOP, START or HELP to your short code. Leave one empty to send no reply."
          >
            {canChange ? (
              <AutomaticRepliesForm settings={settings.data} onSubmit={saverOf('replies')} />
            ) : (
              <SettingsSummary items={REPLIES.map(({ field, label }) => ({ label, value: settings.data[field] || 'No reply.' }))} />
            )}
          </SettingsCard>
          <SettingsCard
            id="test-numbers"
            title="Test numbers"
            intro="Editors send tests to the members’ own numbers (their profile) and to these. Admins may send tests to any number."
          >
            {canChange ? (
              <TestNumbersForm settings={settings.data} onSubmit={saverOf('tests')} />
            ) : (
              <SettingsSummary items={[{ label: 'Test numbers', value: describeTestNumbers(settings.data.test_numbers) }]} />
            )}
          </SettingsCard>
        </Stack>
      )}
    </section>
  );
}

function SettingsCard({ id, title, intro, children }: { id: string; title: string; intro: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={`${id}-title`}>
      <Title order={3} size="h5" id={`${id}-title`}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {intro}
      </Text>
      {children}
    </Paper>
  );
}
