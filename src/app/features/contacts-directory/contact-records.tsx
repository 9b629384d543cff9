import type { ContactDetail } from '../../api/gen/types.gen';
import { ContactClicksTable, ContactInboundTable, ContactMessagesTable } from './contact-activity';
import { ContactConsent } from './contact-consent';
import { ContactMemberships } from './contact-memberships';
import { ContactOptOutHistory } from './contact-opt-out-history';
import { ContactSection } from './contact-section';

/** The number's records, one section a kind: groups with their fields, consent, messages, clicks, inbound messages, opt-outs. */
export function ContactRecords({ contact }: { contact: ContactDetail }) {
  const { groups, messages, clicks, inbound_messages: inbound, opt_out_events: events } = contact;
  return (
    <>
      <ContactSection title="Groups" total={groups.length} shown={groups.length} empty="The number is in none of your groups any more.">
        <ContactMemberships groups={groups} />
      </ContactSection>
      <ContactConsent phoneNumber={contact.phone_number} request={contact.opt_in_request} />
      <ContactSection title="Messages received" total={messages.total} shown={messages.items.length} empty="No campaign has sent it a message.">
        <ContactMessagesTable messages={messages.items} />
      </ContactSection>
      <ContactSection title="Clicks" total={clicks.total} shown={clicks.items.length} empty="No tracked link was opened from its messages.">
        <ContactClicksTable clicks={clicks.items} />
      </ContactSection>
      <ContactSection title="Inbound messages" total={inbound.total} shown={inbound.items.length} empty="It has not texted your team.">
        <ContactInboundTable messages={inbound.items} />
      </ContactSection>
      <ContactSection title="Opt-out history" total={events.total} shown={events.items.length} empty="It has never opted out or back in.">
        <ContactOptOutHistory events={events.items} />
      </ContactSection>
    </>
  );
}
