import { useId, useState, type ReactNode, type TextareaHTMLAttributes } from 'react';

// The panels' inputs. Texts keep what is typed in local state and become one edit when the field is
// left (or Enter is pressed), so a keystroke re-renders one input, not the editor, and undo takes
// back a whole text rather than one letter.

const INPUT =
  'w-full rounded border border-slate-300 px-2 py-1 text-sm outline-none focus:ring-2 focus:ring-indigo-500 disabled:bg-slate-50 disabled:text-slate-600';

/** Local text that follows the stored value when it changes under us (undo, redo, a server copy). */
export function useDraftText(value: string): [string, (s: string) => void] {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setText(value);
  }
  return [text, setText];
}

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="text-xs font-medium text-slate-700">
      {children}
    </label>
  );
}

export function ErrorText({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="text-xs text-red-800">
      {children}
    </p>
  );
}

interface TextProps {
  label: string;
  value: string;
  onCommit: (value: string) => void;
  disabled?: boolean;
  placeholder?: string;
  multiline?: boolean;
  /** A live check of what is typed: the message to show, or null. */
  check?: (value: string) => string | null;
  /** Hide the visible label (the label still names the input for screen readers). */
  hideLabel?: boolean;
  maxLength?: number;
  onKeyDown?: TextareaHTMLAttributes<HTMLElement>['onKeyDown'];
  onPaste?: TextareaHTMLAttributes<HTMLElement>['onPaste'];
  className?: string;
  inputProps?: Record<string, string>;
}

export function TextField(p: TextProps) {
  const id = useId();
  const [text, setText] = useDraftText(p.value);
  const error = p.check ? p.check(text) : null;
  const commit = () => {
    if (text !== p.value && !error) p.onCommit(text);
  };
  const common = {
    id,
    value: text,
    disabled: p.disabled,
    placeholder: p.placeholder,
    maxLength: p.maxLength,
    'aria-label': p.hideLabel ? p.label : undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    className: `${INPUT} ${error ? 'border-red-500' : ''}`,
    onBlur: commit,
    onPaste: p.onPaste,
    ...p.inputProps,
  };
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${p.className ?? ''}`}>
      {!p.hideLabel && <Label htmlFor={id}>{p.label}</Label>}
      {p.multiline ? (
        <textarea
          {...common}
          rows={3}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit();
            p.onKeyDown?.(e);
          }}
        />
      ) : (
        <input
          {...common}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            p.onKeyDown?.(e);
          }}
        />
      )}
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </div>
  );
}

/** A whole number (or any finite number with `decimal`), committed when left; '' is not a value. */
export function NumberField(p: {
  label: string;
  value: number;
  onCommit: (value: number) => void;
  disabled?: boolean;
  min?: number;
  max?: number;
  step?: number;
  decimal?: boolean;
  error?: string | null;
}) {
  const id = useId();
  const [text, setText] = useDraftText(String(p.value));
  const n = Number(text.replace(',', '.'));
  const valid = text.trim() !== '' && Number.isFinite(n) && (p.decimal || Number.isInteger(n));
  const commit = () => {
    if (valid && n !== p.value) p.onCommit(n);
  };
  const error = p.error ?? null;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Label htmlFor={id}>{p.label}</Label>
      <input
        id={id}
        type="number"
        inputMode={p.decimal ? 'decimal' : 'numeric'}
        value={text}
        min={p.min}
        max={p.max}
        step={p.step ?? (p.decimal ? 'any' : 1)}
        disabled={p.disabled}
        aria-invalid={!valid || error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${INPUT} ${!valid || error ? 'border-red-500' : ''}`}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </div>
  );
}

export function Checkbox(p: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className="h-4 w-4 accent-indigo-600"
        checked={p.checked}
        disabled={p.disabled}
        onChange={(e) => p.onChange(e.target.checked)}
      />
      <label htmlFor={id} className="text-sm text-slate-700">
        {p.label}
      </label>
    </div>
  );
}

export function Select<T extends string>(p: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  disabled?: boolean;
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      {!p.hideLabel && <Label htmlFor={id}>{p.label}</Label>}
      <select
        id={id}
        aria-label={p.hideLabel ? p.label : undefined}
        value={p.value}
        disabled={p.disabled}
        className={INPUT}
        onChange={(e) => p.onChange(e.target.value as T)}
      >
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2 border-t border-slate-200 pt-3">
      <h3 className="text-sm font-semibold text-slate-800">{title}</h3>
      {children}
    </section>
  );
}
