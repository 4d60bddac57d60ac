import { useRole } from '../features/auth/hooks/useRole';
import { ModerationScreen } from '../features/moderation/components/ModerationScreen';
import { usePageTitle } from '../hooks/usePageTitle';

/** Moderation (/moderation, issue 15); signed-in only (the route wraps it in RequireAuth), moderators and admins see the queue. */
export default function ModerationPage() {
  usePageTitle('Moderation');
  const role = useRole();
  return <ModerationScreen role={role} />;
}
