import { List, Stack, Text } from '@mantine/core';
import type { Condition, SegmentMatch } from '../../../shared/contract/segments';
import { leafSentence, matchLead, segmentLead, type ConditionNames } from './condition-sentences';

/** A saved segment's conditions as sentences: what a reader (a viewer, or anyone before editing) sees. */
export function SegmentConditions({ match, conditions, names }: { match: SegmentMatch; conditions: readonly Condition[]; names: ConditionNames }) {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {segmentLead(match)}
      </Text>
      <List size="sm" spacing={6} aria-label="Conditions">
        {conditions.map((condition, index) =>
          condition.type === 'group_of_conditions' ? (
            <List.Item key={index}>
              {matchLead(condition.match)} these:
              <List withPadding size="sm" spacing={4} mt={4}>
                {condition.conditions.map((inner, innerIndex) => (
                  <List.Item key={innerIndex}>{leafSentence(inner, names)}</List.Item>
                ))}
              </List>
            </List.Item>
          ) : (
            <List.Item key={index}>{leafSentence(condition, names)}</List.Item>
          ),
        )}
      </List>
    </Stack>
  );
}
