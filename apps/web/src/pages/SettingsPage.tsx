import { PlaceholderPage } from '../components/PlaceholderPage';

/** Settings (/setting); built in the settings issue. */
export default function SettingsPage() {
  return <PlaceholderPage title="Settings" />;
}
