import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PublicPage } from '../../components/public-page';
import { ResetPasswordForm } from '../../features/auth/reset-password-form';
import { useSignOut } from '../../features/auth/session-mutations';
import { getSession } from '../../lib/session';
import { paths } from '../../paths';
import type { SignInState } from '../sign-in/sign-in.page';

/** The e-mailed link, `/reset-password#<secret>`: a fragment never reaches a server, nor its logs. */
export default function ResetPasswordPage() {
  const { hash } = useLocation();
  // Read once: the link stays usable in this tab whatever the address bar does afterwards.
  const [token] = useState(() => hash.replace(/^#/, '').trim());
  const navigate = useNavigate();
  const signOut = useSignOut();

  const signInAgain = async () => {
    // Every session of the account has ended; one open in this browser would only fail from now on.
    if (getSession()) await signOut.mutateAsync();
    const state: SignInState = { notice: 'Your password was changed. Sign in with your new password.' };
    void navigate(paths.signIn.getHref(), { replace: true, state });
  };

  return (
    <PublicPage
      title="Choose a new password"
      description="For the account the reset link was sent to."
      footerLink={{ href: paths.signIn.getHref(), label: 'Back to sign in' }}
    >
      <ResetPasswordForm token={token} onReset={() => void signInAgain()} />
    </PublicPage>
  );
}
