import { NotificationsScreen } from '../features/notifications/components/NotificationsScreen';

/** Notifications (/notifications); signed-in only (the route wraps it in RequireAuth). */
export default function NotificationsPage() {
  return <NotificationsScreen />;
}
