import { PlaceholderPage } from '../components/PlaceholderPage';

/** Notifications (/notifications); built in the notifications issue. */
export default function NotificationsPage() {
  return <PlaceholderPage title="Notifications" />;
}
