import { Bell } from 'lucide-react';
import { Link } from 'react-router';

/** Bell of the top bar; the unread badge and dropdown come with the notifications issue. */
export function NotificationBell() {
  return (
    <Link to="/notifications" aria-label="Notifications" title="Notifications" className="icon-button">
      <Bell size={20} aria-hidden="true" />
    </Link>
  );
}
