import { useId, useLayoutEffect, useRef, useState, type ReactNode, type TextareaHTMLAttributes } from 'react';

// The panels' inputs. Texts become one edit when the field is left (or Enter is pressed), so undo
// takes back a whole text rather than one letter. A text field keeps what is typed in the field
// itself, not in React state: a keystroke renders nothing (only a live check's message, when it
// changes), which keeps a keystroke in the panel within a frame at 1 000 questions (issue 34,
// docs/decisions/editor.md).

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
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const check = (text: string) => (p.check ? p.check(text) : null);
  const [error, setError] = useState(() => check(p.value));
  // The stored value changed under us (undo, redo, a server copy, our own commit): the field shows
  // it, as a controlled field would, and what was typed and not committed gives way.
  const shown = useRef(p.value);
  useLayoutEffect(() => {
    if (shown.current === p.value) return;
    shown.current = p.value;
    if (field.current && field.current.value !== p.value) field.current.value = p.value;
    setError(check(p.value));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the check is read with the value it checks
  }, [p.value]);
  const commit = () => {
    const text = field.current?.value ?? p.value;
    if (text !== p.value && !check(text)) p.onCommit(text);
  };
  const common = {
    id,
    ref: field,
    defaultValue: p.value,
    disabled: p.disabled,
    placeholder: p.placeholder,
    maxLength: p.maxLength,
    'aria-label': p.hideLabel ? p.label : undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    className: `${INPUT} ${error ? 'border-red-500' : ''}`,
    onBlur: commit,
    onPaste: p.onPaste,
    // Only a live check renders, and only when its message changes (React skips an equal state).
    onInput: p.check
      ? (e: { currentTarget: { value: string } }) => setError(check(e.currentTarget.value))
      : undefined,
    ...p.inputProps,
  };
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${p.className ?? ''}`}>
      {!p.hideLabel && <Label htmlFor={id}>{p.label}</Label>}
      {p.multiline ? (
        <textarea
          {...common}
          rows={3}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit();
            p.onKeyDown?.(e);
          }}
        />
      ) : (
        <input
          {...common}
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
