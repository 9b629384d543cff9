import type { ReceiptOutcome } from './delivery-receipt';

type Group = { total: number; outcomes: Map<string, ReceiptOutcome | null> };

/**
 * Folds the receipts of a concatenated message's parts into one receipt for the message, named by
 * its first part's id (the gateway id Herald stores). Kept in memory only — which loses nothing,
 * because the gateway acknowledges a part's receipt only once the message's receipt is stored: after
 * a restart the SMSC delivers the unacknowledged parts again, the first part's receipt alone then
 * settles the message, and the other parts' receipts name ids nobody knows, which the engine ignores.
 */
export function createMultipartReceipts(options: { maxGroups?: number } = {}) {
  const maxGroups = options.maxGroups ?? 100_000;
  const groups = new Map<string, Group>();
  const groupOfPart = new Map<string, string>();

  const forget = (firstId: string) => {
    const group = groups.get(firstId);
    if (!group) return;
    for (const partId of group.outcomes.keys()) groupOfPart.delete(partId);
    groups.delete(firstId);
  };

  return {
    /** The first part was accepted: its receipt no longer speaks for the whole message. */
    expect(firstId: string, total: number): void {
      forget(firstId);
      groups.set(firstId, { total, outcomes: new Map([[firstId, null]]) });
      groupOfPart.set(firstId, firstId);
      // Receipts that never come must not grow the map forever: the oldest group goes first.
      if (groups.size > maxGroups) forget(groups.keys().next().value!);
    },
    addPart(firstId: string, partId: string): void {
      const group = groups.get(firstId);
      if (!group) return;
      group.outcomes.set(partId, null);
      groupOfPart.set(partId, firstId);
    },
    forget,
    /**
     * Records a final receipt for `messageId`. Returns the message's receipt when this completes it
     * (delivered when every part was, else the first failed part's reason, in part order), the
     * receipt itself when the id is not a part of a known message, and `{ waitingFor }` (the first
     * part's id) while parts are missing.
     */
    settle(messageId: string, outcome: ReceiptOutcome): { gatewayId: string; outcome: ReceiptOutcome } | { waitingFor: string } {
      const firstId = groupOfPart.get(messageId);
      if (firstId === undefined) return { gatewayId: messageId, outcome };
      const group = groups.get(firstId)!;
      if (group.outcomes.get(messageId) === null) group.outcomes.set(messageId, outcome);
      const outcomes = [...group.outcomes.values()];
      if (outcomes.length < group.total || outcomes.includes(null)) return { waitingFor: firstId };
      forget(firstId);
      return { gatewayId: firstId, outcome: folded(outcomes) };
    },
    /**
     * Gives up waiting for the rest of `firstId`'s parts: the message's receipt from the parts that
     * came (failed if one failed, else delivered), or null when none did or the group is unknown.
     */
    settleIncomplete(firstId: string): { gatewayId: string; outcome: ReceiptOutcome } | null {
      const group = groups.get(firstId);
      if (!group) return null;
      const outcomes = [...group.outcomes.values()].filter((part) => part !== null);
      forget(firstId);
      return outcomes.length === 0 ? null : { gatewayId: firstId, outcome: folded(outcomes) };
    },
  };
}

function folded(outcomes: Array<ReceiptOutcome | null>): ReceiptOutcome {
  return outcomes.find((part) => part?.status === 'failed') ?? { status: 'delivered' };
}

export type MultipartReceipts = ReturnType<typeof createMultipartReceipts>;
