import { SettingsScreen } from '../features/settings/components/SettingsScreen';

/** Settings (/setting); signed-in only (the route wraps it in RequireAuth). */
export default function SettingsPage() {
  return <SettingsScreen />;
}
