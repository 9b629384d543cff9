import { OnceShownSecret } from './once-shown-secret';

interface SigningSecretNoticeProps {
  /** What happened, naming the thing the secret signs for, e.g. `Webhook “CRM” created`. */
  title: string;
  secret: string;
  /** A sentence after the warning, e.g. what became of the secret a rotation replaced. */
  note?: string;
  onDismiss: () => void;
}

const LABELS = { secret: 'Signing secret', copy: 'Copy the signing secret', dismiss: 'Dismiss the signing secret' };

/** The service shows a signing secret (a webhook's, an event endpoint's) once, when made or rotated, so it must be copied now. */
export function SigningSecretNotice({ title, secret, note, onDismiss }: SigningSecretNoticeProps) {
  return (
    <OnceShownSecret title={title} secret={secret} labels={LABELS} onDismiss={onDismiss}>
      Your endpoint checks each call&apos;s signature with this secret. <strong>Copy it now: it will not be shown again.</strong>
      {note && ` ${note}`}
    </OnceShownSecret>
  );
}
