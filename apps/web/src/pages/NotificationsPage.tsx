import { NotificationsScreen } from '../features/notifications/components/NotificationsScreen';
import { usePageTitle } from '../hooks/usePageTitle';

/** Notifications (/notifications); signed-in only (the route wraps it in RequireAuth). */
export default function NotificationsPage() {
  usePageTitle('Notifications');
  return <NotificationsScreen />;
}
