import type { ButtonHTMLAttributes, ReactNode } from 'react';

// The app's buttons. `type` defaults to "button" so a button inside a form never submits it by
// accident; a submit button says so explicitly.

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

const BASE =
  'inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors ' +
  'focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-50';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-700 px-4 py-2 text-white hover:bg-indigo-800 focus-visible:ring-indigo-500',
  secondary:
    'border border-slate-300 bg-white px-4 py-2 text-slate-700 hover:bg-slate-50 focus-visible:ring-indigo-500',
  danger: 'bg-red-800 px-4 py-2 text-white hover:bg-red-900 focus-visible:ring-red-500',
  ghost: 'px-3 py-2 text-indigo-700 hover:bg-indigo-50 focus-visible:ring-indigo-500',
};

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={`${BASE} ${VARIANTS[variant]} ${className}`} {...props} />;
}

/** An icon-only button: `label` is its accessible name and its tooltip. */
export function IconButton({
  label,
  children,
  className = '',
  type = 'button',
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'title'> & {
  label: string;
  children: ReactNode;
}) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={`inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:cursor-not-allowed disabled:opacity-50 ${className}`}
      {...props}
    >
      {children}
    </button>
  );
}
