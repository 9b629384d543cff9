/**
 * The gateway id Herald keeps for a message a team's connection carried: `c<connection id>:<the
 * provider's message id>`. Receipts are matched on gateway ids, so the connection's part means a
 * status callback verified for one connection can only ever settle that connection's messages (a
 * provider id is unique only at its provider, and a callback of another team's account names none of
 * ours). Messages through the installation's SMS_GATEWAY keep the gateway's own id, which never has
 * this shape's `c<digits>:` start… unless an SMSC chose it: they are told apart by `connection_id`.
 */
export const providerGatewayId = (connectionId: number, providerId: string): string => `c${connectionId}:${providerId}`;

/** The provider's own id inside a gateway id made by providerGatewayId (what a report or the contact page shows). */
export function providerIdOf(gatewayId: string): string {
  const match = /^c\d+:/.exec(gatewayId);
  return match ? gatewayId.slice(match[0].length) : gatewayId;
}
