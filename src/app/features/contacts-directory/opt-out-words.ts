import { OPTOUTS_GROUP } from '../../../shared/contract';
import type { OptOutEvent } from '../../api/gen/types.gen';

const by = (event: OptOutEvent) => (event.user ? ` by ${event.user.name}` : '');

/** How the number entered or left default_optouts, in a few words (who did it, when by hand). */
export function describeOptOutEvent(event: OptOutEvent): string {
  const entered = event.kind === 'opt_out';
  switch (event.source) {
    case 'keyword':
      return entered ? 'Texted STOP (or another opt-out word)' : 'Texted START (or UNSTOP)';
    case 'import':
      return `${entered ? 'Imported into' : 'Taken out of'} ${OPTOUTS_GROUP}${by(event)}`;
    case 'dashboard':
      return `${entered ? 'Added to' : 'Taken out of'} ${OPTOUTS_GROUP} in the dashboard${by(event)}`;
    case 'api':
      return `${entered ? 'Added to' : 'Taken out of'} ${OPTOUTS_GROUP} through the API${by(event)}`;
    case 'provider':
      return entered ? 'Opted out at the SMS provider' : `Taken out of ${OPTOUTS_GROUP} by the SMS provider`;
  }
}

/** The latest event of that kind, if the history holds one (the history is newest first). */
export function latestOptOutEvent(events: readonly OptOutEvent[], kind: OptOutEvent['kind']): OptOutEvent | undefined {
  return events.find((event) => event.kind === kind);
}
