import * as v from 'valibot';
import { newPassword } from './validation';

// The profile's change-password form (spec section 2, "Profile: change password"; messages of
// section 5). The server checks the same `newPassword` rule in PasswordSetBody.

export const ChangePasswordForm = v.object({
  password: newPassword,
  confirm: v.string('type'),
});
export type ChangePasswordForm = v.InferOutput<typeof ChangePasswordForm>;

/** 'passwordsMatch' when the repetition differs; checked even while the password itself is wrong. */
export function confirmIssue(values: {
  password: string;
  confirm: string;
}): 'required' | 'passwordsMatch' | null {
  if (!values.confirm) return 'required';
  return values.password === values.confirm ? null : 'passwordsMatch';
}
