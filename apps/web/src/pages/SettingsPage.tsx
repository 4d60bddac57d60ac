import { SettingsScreen } from '../features/settings/components/SettingsScreen';
import { usePageTitle } from '../hooks/usePageTitle';

/** Settings (/setting); signed-in only (the route wraps it in RequireAuth). */
export default function SettingsPage() {
  usePageTitle('Settings');
  return <SettingsScreen />;
}
