import { Anchor, Badge, Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../paths';
import { inboxQueries } from './inbox-queries';

/** Beside the thread: the contact's groups and its fields in each (the contact directory's read). */
export function ContactPanel({ phoneNumber }: { phoneNumber: string }) {
  const contact = useQuery(inboxQueries.contact(phoneNumber));
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="contact-panel-title">
      <Title order={2} size="h5" id="contact-panel-title" mb="xs">
        Contact
      </Title>
      {contact.isPending ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : contact.isError ? (
        <Text size="sm" c="dimmed">
          The contact could not be loaded.
        </Text>
      ) : (
        <Stack gap="sm">
          {contact.data.opted_out && (
            <Badge color="red" variant="light">
              Opted out
            </Badge>
          )}
          {contact.data.groups.length === 0 ? (
            <Text size="sm" c="dimmed">
              In no group.
            </Text>
          ) : (
            contact.data.groups.map((group) => (
              <Stack key={group.uuid} gap={2}>
                <Anchor component={Link} to={paths.contactGroups.detail.getHref(group.uuid)} size="sm" fw={600}>
                  {group.name}
                </Anchor>
                {Object.keys(group.custom_fields).length > 0 && (
                  <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 8 }}>
                    {Object.entries(group.custom_fields).map(([field, value]) => (
                      <Text key={field} component="div" size="xs" style={{ display: 'contents' }}>
                        <Text component="dt" size="xs" c="dimmed">
                          {field}
                        </Text>
                        <Text component="dd" size="xs" m={0} style={{ overflowWrap: 'anywhere' }}>
                          {value || '—'}
                        </Text>
                      </Text>
                    ))}
                  </dl>
                )}
              </Stack>
            ))
          )}
          <Anchor component={Link} to={paths.contacts.detail.getHref(phoneNumber)} size="sm">
            Everything about this number
          </Anchor>
        </Stack>
      )}
    </Card>
  );
}
