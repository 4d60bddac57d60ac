import { Lock, Mail, User } from 'lucide-react';
import { Field, type FieldProps } from '../../../components/ui/Field';

/** What each input of the auth screens (sign-in, sign-up, forgot and reset password) has by default. */
const KINDS = {
  name: { label: 'Full Name', Icon: User, type: 'text', autoComplete: 'name', placeholder: 'Your full name' },
  email: { label: 'Email', Icon: Mail, type: 'email', autoComplete: 'email', placeholder: 'you@example.com' },
  password: { label: 'Password', Icon: Lock, type: 'password', autoComplete: 'current-password', placeholder: '••••••••' },
} as const;

type AuthFieldProps = Omit<FieldProps, 'label' | 'type' | 'icon'> & { kind: keyof typeof KINDS; label?: string };

/** A required input of the auth screens with its icon; `name` is the kind unless given. */
export function AuthField({ kind, label, ...input }: AuthFieldProps) {
  const { Icon, label: defaultLabel, ...preset } = KINDS[kind];
  return <Field {...preset} label={label ?? defaultLabel} icon={<Icon size={18} />} name={kind} required {...input} />;
}
