import { useLocation } from 'react-router';
import { PublicPage } from '../../components/public-page';
import { ForgotPasswordForm } from '../../features/auth/forgot-password-form';
import { paths } from '../../paths';

/** What the sign-in page hands over: the address already typed there. */
export interface ForgotPasswordState {
  email?: string;
}

export default function ForgotPasswordPage() {
  const state = useLocation().state as ForgotPasswordState | null;
  return (
    <PublicPage
      title="Forgot your password?"
      description="Type the address you sign in with: we e-mail you a link to choose a new password."
      footerLink={{ href: paths.signIn.getHref(), label: 'Back to sign in' }}
    >
      <ForgotPasswordForm defaultEmail={typeof state?.email === 'string' ? state.email : ''} />
    </PublicPage>
  );
}
