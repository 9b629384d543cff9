/**
 * The signing secret of a flow just created, held in memory only (never in the URL or the history)
 * from the create page to the flow's page, which shows it once and forgets it.
 */
const secrets = new Map<string, string>();

export function keepCreatedSecret(flowUuid: string, secret: string | undefined): void {
  if (secret) secrets.set(flowUuid, secret);
}

export function takeCreatedSecret(flowUuid: string): string | null {
  const secret = secrets.get(flowUuid) ?? null;
  secrets.delete(flowUuid);
  return secret;
}
