import { describe, expect, it } from 'vitest';
import { defaultSendersFor } from './teams.service';

describe('default senders of a new team', () => {
  it('are 88440 and the name stripped to letters and digits, at most 11 characters', () => {
    expect(defaultSendersFor('Acme & Sons Trading Ltd')).toEqual(['88440', 'AcmeSonsTra']);
    expect(defaultSendersFor('Bob’s Café')).toEqual(['88440', 'BobsCaf']);
    expect(defaultSendersFor('Herald')).toEqual(['88440', 'Herald']);
  });

  it('are only 88440 when the name leaves fewer than 3 characters', () => {
    expect(defaultSendersFor('A&B')).toEqual(['88440']);
    expect(defaultSendersFor('ÉÉÉ')).toEqual(['88440']);
    expect(defaultSendersFor('88440')).toEqual(['88440']);
  });
});
