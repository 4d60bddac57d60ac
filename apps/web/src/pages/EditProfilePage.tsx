import { PlaceholderPage } from '../components/PlaceholderPage';

/** Edit profile (/edit-profile); built in the profile issue. */
export default function EditProfilePage() {
  return <PlaceholderPage title="Edit Profile" />;
}
