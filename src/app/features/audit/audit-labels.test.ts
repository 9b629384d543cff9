/**
 * How the audit log words what it shows: actions the dashboard knows, actions added to the API
 * later (still read as words), refused edits of any resource, pauses told from resumes, and each
 * kind of resource linked to its page only while it exists.
 *
 * Seen red: with the `.refused` fallback removed from `actionLabel` (`updateLink.refused` read
 * as its raw name instead of "Edit refused (locked)").
 */
import { describe, expect, it } from 'vitest';
import { formatChangeValue } from './audit-changes';
import { actionLabel, eventLabel, resourceHref, resourceLabel } from './audit-labels';

const UUID = '5f0c2d1e-0000-4000-8000-00000000c0de';

describe('the audit log’s words', () => {
  it('name the actions, known or not, and refused edits whatever the resource', () => {
    expect(actionLabel('login')).toBe('Signed in');
    expect(actionLabel('loginFailed')).toBe('Failed sign-in');
    expect(actionLabel('approveCampaign')).toBe('Approved campaign');
    expect(actionLabel('updateCampaign.refused')).toBe('Edit refused (locked)');
    expect(actionLabel('updateLink.refused')).toBe('Edit refused (locked)');
    expect(actionLabel('deleteLink.refused')).toBe('Deletion refused (locked)');
    expect(actionLabel('createLink.refused')).toBe('Refused (locked)');
    expect(actionLabel('archiveCampaignNow')).toBe('Archive campaign now');
    expect(actionLabel('POST /api/2.0/something')).toBe('POST /api/2.0/something');
  });

  it('tell a pause from a resume by the change recorded', () => {
    expect(eventLabel({ action: 'toggleCampaignPaused', changes: { manually_paused: { before: false, after: true } } })).toBe('Paused campaign');
    expect(eventLabel({ action: 'toggleCampaignPaused', changes: { manually_paused: { before: true, after: false } } })).toBe('Resumed campaign');
    expect(eventLabel({ action: 'toggleCampaignPaused', changes: {} })).toBe('Paused or resumed campaign');
  });

  it('link a resource to its page while it exists (a report to its campaign)', () => {
    expect(resourceHref({ action: 'updateSender', resource_type: 'sender', resource_uuid: UUID })).toBe(`/senders/${UUID}/edit`);
    expect(resourceHref({ action: 'requestClicksReport', resource_type: 'report', resource_uuid: UUID })).toBe(`/campaigns/${UUID}`);
    expect(resourceHref({ action: 'updateContactGroup', resource_type: 'contact_group', resource_uuid: UUID })).toBe(`/contact-groups/${UUID}`);
    expect(resourceHref({ action: 'deleteCampaign', resource_type: 'campaign', resource_uuid: UUID })).toBeNull();
    expect(resourceHref({ action: 'deleteCampaign.refused', resource_type: 'campaign', resource_uuid: UUID })).toBe(`/campaigns/${UUID}`);
    expect(resourceHref({ action: 'updateMember', resource_type: 'member', resource_uuid: UUID })).toBeNull();
    expect(resourceLabel('contact_group')).toBe('Contact group');
    expect(resourceLabel('audit_event')).toBe('Audit event');
  });

  it('write recorded values as a person reads them', () => {
    expect(formatChangeValue(true)).toBe('yes');
    expect(formatChangeValue(null)).toBe('none');
    expect(formatChangeValue('')).toBe('empty');
    expect(formatChangeValue(['a', 'b'])).toBe('a, b');
    expect(formatChangeValue([])).toBe('none');
    expect(formatChangeValue(0)).toBe('0');
    expect(formatChangeValue({ a: 1 })).toBe('{"a":1}');
  });
});
