import { useI18nContext } from '../../../i18n/i18n-react';
import { Button } from '../../ui/Button';
import { CopyIcon } from '../../ui/icons';
import { notify } from '../../ui/toast';

/** The survey link with a copy button (inside the modal the "Get survey link" tool opens). */
export function LinkDialogBody({ link, note }: { link: string; close: () => void; note?: string }) {
  const { LL } = useI18nContext();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      notify.success(LL.editor.frame.link.copied());
    } catch {
      // No clipboard permission: the text is selected for a manual copy.
      (document.getElementById('survey-link') as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="flex flex-col gap-4">
      {note && (
        <p className="text-sm text-slate-700" data-testid="link-note">
          {note}
        </p>
      )}
      <label className="flex flex-col gap-1 text-sm text-slate-700">
        {LL.editor.frame.link.label()}
        <input
          id="survey-link"
          readOnly
          value={link}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
        />
      </label>
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={copy} data-autofocus>
          <CopyIcon className="mr-1 inline h-4 w-4" />
          {LL.editor.frame.link.copy()}
        </Button>
      </div>
    </div>
  );
}
