import type { CreatedApiToken } from '../../api/gen/types.gen';
import { OnceShownSecret } from '../../components/once-shown-secret';

interface CreatedTokenNoticeProps {
  token: Pick<CreatedApiToken, 'name' | 'token'>;
  onDismiss: () => void;
}

const LABELS = { secret: 'New API token', copy: 'Copy the token', dismiss: 'Dismiss the new token' };

/** The service shows a token's secret once (it keeps only a hash), so it must be copied now. */
export function CreatedTokenNotice({ token, onDismiss }: CreatedTokenNoticeProps) {
  return (
    <OnceShownSecret title={`Token “${token.name}” created`} secret={token.token} labels={LABELS} onDismiss={onDismiss}>
      Copy it now: for your security it will not be shown again.
    </OnceShownSecret>
  );
}
