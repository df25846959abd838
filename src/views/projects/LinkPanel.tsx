import { useId, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';

/** Shows the survey link, selectable and with a copy button. */
export function LinkPanel({ link, note, onClose }: { link: string; note?: string; onClose: () => void }) {
  const { LL } = useI18nContext();
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      notify.success(LL.projects.link.copied());
    } catch {
      // No clipboard (insecure context, denied): the field stays selected for Ctrl+C.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="flex flex-col gap-4">
      {note && (
        <p className="text-sm text-slate-700" data-testid="link-note">
          {note}
        </p>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {LL.projects.link.label()}
        </label>
        <input
          id={id}
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
          className="rounded border border-slate-300 px-3 py-2 font-mono text-sm"
        />
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={copy}>
          {copied ? LL.projects.link.copied() : LL.projects.link.copy()}
        </Button>
        <Button onClick={onClose}>{LL.common.close()}</Button>
      </div>
    </div>
  );
}
