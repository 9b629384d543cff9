import { json, page } from '../../testing/mock-api';
import { GROUP_UUID, TEMPLATE_UUID } from './campaign-fixtures';

/**
 * What the campaign pages read besides the campaign (tests): the team's one template, its preview
 * and its one group. The answer for `path`, or undefined when the page asked for something else.
 */
export function campaignPageReads(path: string, options: { body?: string; preview?: string; contacts?: number } = {}): Response | undefined {
  const template = {
    uuid: TEMPLATE_UUID,
    name: 'Spring',
    body: options.body ?? 'Hi',
    sender: 'HeraldShop',
    links: [],
    is_locked: false,
    created_at: '',
    updated_at: '',
  };
  if (path === '/templates') return json(page([template]));
  if (path === `/templates/${TEMPLATE_UUID}/preview`)
    return json({ data: { ...template, body: options.preview ?? template.body, phone_number: '', warnings: [] } });
  if (path === '/contact-groups')
    return json(
      page([
        {
          uuid: GROUP_UUID,
          name: 'Newsletter',
          description: null,
          deletable: true,
          number_of_contacts: options.contacts ?? 3,
          status: 'Ready',
          headers: [],
          created_at: '',
          updated_at: '',
        },
      ]),
    );
  return undefined;
}
