import { randomInt } from 'node:crypto';
import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH } from '../../shared/contract';
import { shorthandNames } from '../../shared/sms';
import type { ClaimedMessage, EngineStore, SendingCampaign } from './engine-store';

export function newShortCode(): string {
  let code = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) code += SHORT_CODE_ALPHABET[randomInt(SHORT_CODE_ALPHABET.length)];
  return code;
}

/**
 * One short link per recipient and `::NAME::` of the batch, recorded before the batch is
 * submitted (so every link a handset receives resolves). Returns each message's link URLs by name.
 */
export async function shortLinksFor(
  store: Pick<EngineStore, 'insertShortLinks'>,
  campaign: Pick<SendingCampaign, 'body' | 'links'>,
  batch: ClaimedMessage[],
  urlBase: (domain: string | null) => string,
): Promise<Map<number, Record<string, string>>> {
  const names = shorthandNames(campaign.body).links.filter((name) => campaign.links[name] !== undefined);
  const byMessage = new Map<number, Record<string, string>>(batch.map((message) => [message.id, {}]));
  if (names.length === 0) return byMessage;
  for (let attempt = 0; attempt < 5; attempt++) {
    const rows = batch.flatMap((message) =>
      names.map((name) => {
        const link = campaign.links[name]!;
        return { code: newShortCode(), messageId: message.id, linkId: link.id, linkName: name, destination: link.destination };
      }),
    );
    if (await store.insertShortLinks(rows)) {
      for (const row of rows) byMessage.get(row.messageId)![row.linkName] = `${urlBase(campaign.links[row.linkName]!.domain)}/${row.code}`;
      return byMessage;
    }
  }
  throw new Error('could not make unique short codes');
}
