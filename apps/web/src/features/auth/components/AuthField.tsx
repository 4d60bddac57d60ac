import { Lock, Mail } from 'lucide-react';
import { Field, type FieldProps, PasswordField } from '../../../components/ui/Field';

type AuthFieldProps = Omit<FieldProps, 'type' | 'label' | 'icon'> & { label?: string };

/** The e-mail input of the auth screens (sign-in, sign-up, forgot password). */
export function AuthEmailField({ label = 'Email', ...input }: AuthFieldProps) {
  return (
    <Field
      label={label}
      icon={<Mail size={18} />}
      type="email"
      name="email"
      autoComplete="email"
      placeholder="you@example.com"
      required
      {...input}
    />
  );
}

/** A password input of the auth screens (sign-in, sign-up, reset). */
export function AuthPasswordField({ label = 'Password', ...input }: AuthFieldProps) {
  return <PasswordField label={label} icon={<Lock size={18} />} name="password" placeholder="••••••••" required {...input} />;
}
