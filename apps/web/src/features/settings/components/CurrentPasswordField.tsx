import { type FieldProps, PasswordField } from '../../../components/ui/Field';
import { useSession } from '../../../lib/session';

type CurrentPasswordFieldProps = Omit<FieldProps, 'label' | 'value' | 'onChange'> & { value: string; onValue: (value: string) => void };

/** The current password that transfer and deletion ask for (SPEC.md 5); Google accounts have none, so it is not shown. */
export function CurrentPasswordField({ onValue, ...input }: CurrentPasswordFieldProps) {
  const googleAuth = useSession((s) => s.user.googleAuth);
  if (googleAuth) return null;
  return <PasswordField label="Current Password" onChange={(event) => onValue(event.target.value)} {...input} />;
}
