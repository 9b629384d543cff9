import { ActionIcon, Alert, Button, Group, MultiSelect, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconInfoCircle, IconPlus, IconRoute, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { ANY_COUNTRY, SMS_ROUTE_MAX_CONNECTIONS, SMS_ROUTES_MAX, type SmsConnection, type SmsRouteRule } from '../../../shared/contract';
import { countryName, PHONE_COUNTRIES } from '../../../shared/phone/phone-countries';
import { isApiError, type FieldErrors } from '../../api/api-error';
import { ErrorState } from '../../components/error-state';
import { FormError } from '../../components/form-error';
import { notifySuccess } from '../../lib/notify';
import { smsRouteQueries, useSaveSmsRoutes } from './sms-routes-queries';

/** One rule as the form holds it: the sender as typed ('' for none). */
interface RuleValues {
  countries: string[];
  connections: string[];
  sender: string;
}
interface RoutesFormValues {
  routes: RuleValues[];
}

const ANY_LABEL = 'Any country';
/** Every country libphonenumber knows, by name, after "Any country". */
const COUNTRY_OPTIONS = [
  { value: ANY_COUNTRY, label: ANY_LABEL },
  ...PHONE_COUNTRIES.map((code) => ({ value: code, label: `${countryName(code)} (${code})` })).sort((a, b) => a.label.localeCompare(b.label)),
];

/** Options listed at once (typing finds the others): a long list is slow to open and to read. */
const COUNTRY_OPTIONS_SHOWN = 40;

const toValues = (routes: readonly SmsRouteRule[]): RoutesFormValues => ({
  routes: routes.map((rule) => ({ countries: [...rule.countries], connections: [...rule.connections], sender: rule.sender ?? '' })),
});

/**
 * "Any country" stands alone: choosing it replaces the countries, and choosing a country replaces
 * it (the service refuses `*` beside countries).
 */
function nextCountries(before: readonly string[], after: string[]): string[] {
  if (after.includes(ANY_COUNTRY) && !before.includes(ANY_COUNTRY)) return [ANY_COUNTRY];
  if (before.includes(ANY_COUNTRY) && after.length > 1) return after.filter((country) => country !== ANY_COUNTRY);
  return after;
}

/** What the form itself can tell before asking the service; the rest (unknown connections, senders, a rule after "Any country") is the service's 422. */
function localErrors(values: RoutesFormValues): FieldErrors {
  const errors: FieldErrors = {};
  values.routes.forEach((rule, index) => {
    if (rule.countries.length === 0) errors[`routes.${index}.countries`] = ['Choose at least one country, or Any country.'];
    if (rule.connections.length === 0) errors[`routes.${index}.connections`] = ['Choose at least one connection.'];
  });
  return errors;
}

/**
 * The team's routes (docs/providers.md, Routes): the rules in order, each with its countries, the
 * connections to try in order and an optional sender; add, remove, move up and down, then save the
 * whole list. The service's 422 messages show on the rule's field they name (`routes.1.sender`).
 * For admins: the routes and connections are admin-only reads.
 */
export function RoutesSection() {
  const routes = useQuery(smsRouteQueries.routes());
  const connections = useQuery(smsRouteQueries.connections());

  return (
    <Stack gap="md" component="section" aria-labelledby="sms-routes-title">
      <div>
        <Title order={2} size="h4" id="sms-routes-title">
          Routes
        </Title>
        <Text size="sm" c="dimmed">
          The first rule whose countries hold a recipient’s country chooses the connections to try, in order: when one fails (throttled, down, or refusing the
          account), the next one is tried.
        </Text>
      </div>
      {routes.isPending || connections.isPending ? (
        <Text size="sm" c="dimmed">
          Loading the routes…
        </Text>
      ) : routes.isError ? (
        <ErrorState title="The routes could not be loaded." error={routes.error} onRetry={() => void routes.refetch()} />
      ) : connections.isError ? (
        <ErrorState title="The connections could not be loaded." error={connections.error} onRetry={() => void connections.refetch()} />
      ) : (
        <RoutesForm saved={routes.data.routes} connections={connections.data} />
      )}
    </Stack>
  );
}

function RoutesForm({ saved, connections }: { saved: readonly SmsRouteRule[]; connections: readonly SmsConnection[] }) {
  const save = useSaveSmsRoutes();
  const { control, handleSubmit, reset, setValue } = useForm<RoutesFormValues>({ defaultValues: toValues(saved) });
  const { fields, append, remove, move } = useFieldArray({ control, name: 'routes' });
  const rules = useWatch({ control, name: 'routes' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  // A list saved elsewhere (or by this form) becomes the form's.
  useEffect(() => reset(toValues(saved)), [saved, reset]);

  const connectionOptions = useMemo(
    () =>
      connections.map((connection) => ({
        value: connection.uuid,
        label: `${connection.name} (${connection.provider}${connection.enabled ? '' : ', disabled'})`,
      })),
    [connections],
  );
  const nameOf = (uuid: string) => connections.find((connection) => connection.uuid === uuid)?.name ?? 'a deleted connection';

  /** The message for a request field, or for a part of it (`routes.0.countries.2` shows on `routes.0.countries`). */
  const errorOf = (field: string, parts = true) =>
    errors[field]?.[0] ?? (parts ? Object.entries(errors).find(([name]) => name.startsWith(`${field}.`))?.[1][0] : undefined);

  const moveRule = (from: number, to: number) => {
    move(from, to);
    setErrors({});
  };

  const submit = handleSubmit(async (values) => {
    setFormError(undefined);
    const local = localErrors(values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await save.mutateAsync({
        routes: values.routes.map((rule) => ({ countries: rule.countries, connections: rule.connections, sender: rule.sender.trim() || null })),
      });
      notifySuccess('The routes were saved.');
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        setErrors(error.fieldErrors);
        const known = Object.keys(error.fieldErrors).some((name) => /^routes\.\d+/.test(name));
        setFormError(known ? 'Some rules need a change: see the messages on them above.' : (error.fieldErrors.routes?.[0] ?? error.message));
      } else setFormError(isApiError(error) ? error.message : 'The routes could not be saved.');
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Routes">
      <Stack gap="sm">
        {connections.length === 0 && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle />} role="note">
            Add a connection first: a rule chooses among the team’s connections.
          </Alert>
        )}
        {fields.length === 0 && (
          <Paper withBorder radius="md" p="md">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <IconRoute size={18} aria-hidden />
              <Text size="sm">
                No routes: every message goes through the team’s enabled connections, in the order they were made, whatever its country
                {connections.length === 0 ? ' (with no connection, through the installation’s gateway)' : ''}.
              </Text>
            </Group>
          </Paper>
        )}
        {fields.map((field, index) => {
          const rule = rules[index];
          const ruleError = errorOf(`routes.${index}`, false);
          const countries = rule?.countries ?? [];
          const chosen = rule?.connections ?? [];
          return (
            <Paper
              key={field.id}
              withBorder
              radius="md"
              p="sm"
              role="group"
              aria-label={`Rule ${index + 1}`}
              style={ruleError ? { borderColor: 'var(--mantine-color-error)' } : undefined}
            >
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600} size="sm">
                    Rule {index + 1}
                    {index === 0 ? ' (tried first)' : ''}
                  </Text>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="Move up">
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Move rule ${index + 1} up`}
                        disabled={index === 0}
                        onClick={() => moveRule(index, index - 1)}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Move down">
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Move rule ${index + 1} down`}
                        disabled={index === fields.length - 1}
                        onClick={() => moveRule(index, index + 1)}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Remove">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove rule ${index + 1}`}
                        onClick={() => {
                          remove(index);
                          setErrors({});
                        }}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Group>
                <FormError message={ruleError} />
                <MultiSelect
                  label="Countries"
                  description="The recipients’ countries, from their numbers. Any country covers every other one: put it last."
                  placeholder={countries.length === 0 ? 'Type a country' : undefined}
                  data={COUNTRY_OPTIONS}
                  limit={COUNTRY_OPTIONS_SHOWN}
                  value={countries}
                  onChange={(value) => setValue(`routes.${index}.countries`, nextCountries(countries, value), { shouldDirty: true })}
                  searchable
                  clearable
                  hidePickedOptions
                  nothingFoundMessage="No such country"
                  withAsterisk
                  error={errorOf(`routes.${index}.countries`)}
                />
                <MultiSelect
                  label="Connections, in the order to try them"
                  description={
                    chosen.length > 1
                      ? `Tried in this order: ${chosen.map((uuid, position) => `${position + 1}. ${nameOf(uuid)}`).join(', ')}.`
                      : 'The first one sends; the next ones take over when it fails. Pick them in order.'
                  }
                  placeholder={chosen.length === 0 ? 'Choose connections' : undefined}
                  data={connectionOptions}
                  value={chosen}
                  onChange={(value) => setValue(`routes.${index}.connections`, value, { shouldDirty: true })}
                  maxValues={SMS_ROUTE_MAX_CONNECTIONS}
                  searchable
                  nothingFoundMessage="No such connection"
                  hidePickedOptions
                  withAsterisk
                  error={errorOf(`routes.${index}.connections`)}
                />
                <TextInput
                  label="Sender"
                  description="Optional: the number or ID to send from through these connections (one of each one’s senders). Empty: the campaign’s sender when a connection may use it, else its first sender."
                  autoComplete="off"
                  value={rule?.sender ?? ''}
                  onChange={(event) => setValue(`routes.${index}.sender`, event.currentTarget.value, { shouldDirty: true })}
                  error={errorOf(`routes.${index}.sender`)}
                />
              </Stack>
            </Paper>
          );
        })}
        <FormError message={formError} />
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() => append({ countries: [], connections: [], sender: '' }, { shouldFocus: false })}
            disabled={connections.length === 0 || fields.length >= SMS_ROUTES_MAX}
          >
            Add a rule
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save routes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
