import { describe, expect, it } from 'vitest';
import { WebhookFormSchema } from './webhook-form-schema';

// Each header error is shown beside the half it is about, found by the rule's `part`, not by its
// wording (it went red when the schema placed every error on the name).
const errorsOf = (headers: Array<{ name: string; value: string }>) => {
  const parsed = WebhookFormSchema.safeParse({ name: 'CRM', url: 'https://crm.example.com/hook', headers });
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
};

describe('webhook form headers', () => {
  it('puts a value error on the value and a name error on the name', () => {
    expect(errorsOf([{ name: 'X-Token', value: 'a\nb' }])).toEqual([{ path: 'headers.0.value', message: 'The value of X-Token may not contain line breaks.' }]);
    expect(errorsOf([{ name: 'Host', value: 'example.com' }])).toEqual([
      { path: 'headers.0.name', message: 'The Host header is set by Herald and cannot be stored.' },
    ]);
    expect(errorsOf([{ name: 'Bad Name', value: 'x' }])).toEqual([{ path: 'headers.0.name', message: '"Bad Name" is not a valid header name.' }]);
  });
});
