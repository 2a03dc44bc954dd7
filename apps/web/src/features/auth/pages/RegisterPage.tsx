import { AuthCard } from '../components/AuthCard';
import { SignupForm } from '../components/SignupForm';

/** /register: a new account with its own workspace. */
export function RegisterPage() {
  return (
    <AuthCard title="Create your Parley account" subtitle="Build chatbots trained on your own content.">
      <SignupForm />
    </AuthCard>
  );
}
