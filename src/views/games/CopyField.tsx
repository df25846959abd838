import { useId, useRef } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { IconButton } from '../ui/Button';
import { notify } from '../ui/toast';
import { CopyIcon } from '../ui/icons';

/** A read-only value with its label and, when `copyable`, a button that copies it. */
export function CopyField({ label, value, copyable }: { label: string; value: string; copyable: boolean }) {
  const { LL } = useI18nContext();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard API (an insecure origin): select the text and ask the browser to copy it.
      input.current?.select();
      if (!document.execCommand?.('copy')) {
        notify.error(LL.games.secrets.copyFailed());
        return;
      }
    }
    notify.success(LL.games.secrets.copied({ what: label }));
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-center gap-1">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(e) => e.target.select()}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800"
        />
        {copyable && (
          <IconButton label={LL.games.secrets.copy({ what: label })} onClick={() => void copy()}>
            <CopyIcon />
          </IconButton>
        )}
      </div>
    </div>
  );
}
