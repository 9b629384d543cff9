import type { Campaign, SendTestInput, TestSendInput } from '../../../shared/contract';
import { checkCampaignTimes } from '../../../shared/schedule/campaign-times';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { findCampaign, presentCampaign, recordCampaignChange, type CampaignsDeps } from './campaign-records';
import type { CampaignRecord, CampaignWrite } from './campaigns.repository';

/** Test sends: one-recipient campaigns, to the members' own numbers and the team's test numbers (anywhere for an admin). */

/** Where a member who is not an admin may send tests (422 naming each other number); an admin sends them anywhere. */
async function checkTestNumbers(
  deps: Pick<CampaignsDeps, 'teams'>,
  auth: AuthContext,
  numbers: Array<{ number: string; field: string }>,
  errors: Record<string, string[]>,
) {
  if (auth.role === 'admin' || numbers.length === 0) return;
  const allowed = await deps.teams.testNumbersOf(auth.teamId);
  for (const { number, field } of numbers)
    if (!allowed.has(number))
      (errors[field] ??= []).push(
        `Tests go only to the members' own numbers and the team's test numbers: +${number} is neither. An admin can add it to the test numbers in the team settings.`,
      );
}

/** A one-recipient campaign through the same path as any other (docs/interface.md §4.6 send-test). */
export async function sendTestCampaign(
  deps: Pick<CampaignsDeps, 'db' | 'campaigns' | 'templates' | 'teams' | 'senderRule' | 'audit' | 'clock' | 'config'>,
  auth: AuthContext,
  input: SendTestInput,
): Promise<Campaign> {
  const number = normalizePhoneNumber(input.contact_number, deps.config.defaultCountry);
  const errors: Record<string, string[]> = {};
  if (!number.ok) errors.contact_number = [`The contact number ${JSON.stringify(input.contact_number)} ${number.reason}.`];
  const base = { ...input, included_contact_groups: [], excluded_contact_groups: [], throttled: false };
  const { times, errors: timeErrors } = checkCampaignTimes(base, deps.config.appTimezone);
  Object.assign(errors, timeErrors);
  const template = await deps.templates.find(auth.teamId, input.template_uuid);
  if (!template) errors.template_uuid = ['The selected template uuid is invalid.'];
  if (number.ok) await checkTestNumbers(deps, auth, [{ number: number.number, field: 'contact_number' }], errors);
  const senderRefused = await deps.senderRule.refusal(auth, input.sender);
  if (senderRefused) errors.sender = [senderRefused];
  if (Object.keys(errors).length > 0 || !times || !template || !number.ok) throw new ValidationError(errors);
  const write: CampaignWrite = {
    templateId: template.id,
    name: input.name,
    sender: input.sender,
    scheduledSendDate: times.send,
    expiryDate: times.expiry,
    throttled: false,
    scheduledFinishDate: null,
    includedGroupIds: [],
    excludedGroupIds: [],
    includedSegmentIds: [],
    excludedSegmentIds: [],
    pauses: [],
    // A test goes to one number the caller chose, to see the message: never held for approval.
    approval: { status: 'not_required', requestedBy: null },
    isDraft: false,
    ignoreQuietHours: false,
  };
  const test = { phoneNumber: number.number, customFields: input.custom_fields ?? {} };
  const created = await deps.db.transaction(async (tx) => {
    const record = await deps.campaigns.insert(tx, auth.teamId, write, deps.clock.now(), auth.userId, test);
    await recordCampaignChange(deps, tx, auth, { uuid: record.uuid, after: presentCampaign(deps, record) });
    return record;
  });
  await deps.senderRule.adopt(auth, write.sender);
  return presentCampaign(deps, created);
}

/**
 * Tests of a campaign, sent now: one test campaign per number (the caller's own when none is
 * given), with the campaign's template and sender and, when a recipient is named, that
 * recipient's fields. Whatever the campaign's status; through quiet hours (they go to the team).
 */
export async function sendCampaignTests(
  deps: Pick<CampaignsDeps, 'db' | 'campaigns' | 'teams' | 'users' | 'review' | 'suppressions' | 'audit' | 'clock' | 'config'>,
  auth: AuthContext,
  uuid: string,
  input: TestSendInput,
): Promise<Campaign[]> {
  const record = await findCampaign(deps, auth, uuid);
  const errors: Record<string, string[]> = {};
  const numbers: string[] = [];
  const given = (input.phone_numbers ?? []).map((text) => text.trim()).filter((text) => text !== '');
  if (given.length === 0) {
    const own = (await deps.users.findById(auth.userId))?.phoneNumber;
    if (own) numbers.push(own);
    else errors.phone_numbers = ['Give the numbers to send the test to, or save your own number in your profile.'];
  }
  const checked: Array<{ number: string; field: string }> = [];
  given.forEach((text, index) => {
    const number = normalizePhoneNumber(text, deps.config.defaultCountry);
    if (number.ok) checked.push({ number: number.number, field: `phone_numbers.${index}` });
    else errors[`phone_numbers.${index}`] = [`The phone number ${JSON.stringify(text)} ${number.reason}.`];
  });
  await checkTestNumbers(deps, auth, checked, errors);
  numbers.push(...checked.map(({ number }) => number));
  let fields: Record<string, string> = {};
  const contact = input.contact_phone_number?.trim();
  if (contact) {
    const number = normalizePhoneNumber(contact, deps.config.defaultCountry);
    const groups = await deps.campaigns.groupIds(record.id);
    const found = number.ok
      ? await deps.review.recipientFields(groups.included, [...groups.excluded, await deps.suppressions.listOf(auth.teamId)], number.number)
      : undefined;
    if (found) fields = found;
    else errors.contact_phone_number = [number.ok ? `${contact} is not a recipient of this campaign.` : `The contact phone number ${number.reason}.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const now = deps.clock.now();
  const write: CampaignWrite = {
    templateId: record.templateId,
    name: `Test: ${record.name}`.slice(0, 255),
    sender: record.sender,
    scheduledSendDate: now,
    expiryDate: new Date(now.getTime() + 86_400_000),
    throttled: false,
    scheduledFinishDate: null,
    includedGroupIds: [],
    excludedGroupIds: [],
    includedSegmentIds: [],
    excludedSegmentIds: [],
    pauses: [],
    approval: { status: 'not_required', requestedBy: null },
    isDraft: false,
    ignoreQuietHours: true,
  };
  const created = await deps.db.transaction(async (tx) => {
    const tests: CampaignRecord[] = [];
    for (const phoneNumber of new Set(numbers))
      tests.push(await deps.campaigns.insert(tx, auth.teamId, write, now, auth.userId, { phoneNumber, customFields: fields, testOf: record.id }));
    // Recorded on the campaign tested; the answer is a list of new test campaigns, not the campaign, so no fields are shown.
    await recordCampaignChange(deps, tx, auth, { uuid });
    return tests;
  });
  return created.map((test) => presentCampaign(deps, test));
}
