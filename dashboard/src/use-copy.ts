import { useState } from 'preact/hooks';

/**
 * Copying a read-only field's text (`fieldId`), and the status to show: whether it worked. Some
 * browsers refuse the clipboard to a page; then the field takes the focus, which selects its text
 * (its `onFocus`), one keystroke from a copy. `what` names the text in that status.
 */
export const useCopy = (fieldId: string, text: string, what: string): { copy: () => Promise<void>; status: string } => {
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('Copied to the clipboard.');
    } catch {
      document.getElementById(fieldId)?.focus();
      setStatus(`The browser did not allow copying: the ${what} is selected, press Ctrl+C or ⌘C.`);
    }
  };
  return { copy, status };
};
