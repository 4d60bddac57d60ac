import { MAX_REPORT_TEXT_LENGTH, type ReportReason } from '@inkwell/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { REPORT_REASON_OPTIONS, type ReportTarget, reportProblem, sendReport } from '../../lib/reports';
import { toast } from '../../lib/toast';
import { DialogActions } from './DialogActions';
import { TextAreaField } from './Field';
import { Modal } from './Modal';

export interface ReportDialogProps {
  open: boolean;
  target: ReportTarget;
  /** The dialog's title: 'Report post', 'Report comment', 'Report {name}'. */
  title: string;
  onClose: () => void;
}

/**
 * The Report dialog of issue 15, shared by the reading page, each comment and the profile menu
 * (features do not import each other): a reason (radios), details (required for Other, counted to
 * the limit), Send and Cancel in the shared Modal. The server's answer is a toast; a refusal
 * (already reported, 409; own content; too many) stays in the dialog, so it can be read.
 */
export function ReportDialog({ open, target, title, onClose }: ReportDialogProps) {
  const ids = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  // Each opening starts a fresh report.
  useEffect(() => {
    if (!open) return;
    setReason(null);
    setText('');
    setProblem(null);
  }, [open]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const invalid = reportProblem(reason, text);
    setProblem(invalid);
    if (invalid || !reason) return;
    setSending(true);
    try {
      const answer = await sendReport(target, reason, text);
      toast.success(answer.message);
      onClose();
    } catch (error) {
      setProblem(errorMessage(error, 'Could not send the report. Please try again.'));
    } finally {
      setSending(false);
    }
  };

  const textError = problem && reason === 'other' && !text.trim() ? problem : null;
  const formError = problem && !textError ? problem : null;

  return (
    <Modal open={open} title={title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-gray-700 dark:text-gray-300">Why are you reporting this?</legend>
          <div className="space-y-1">
            {REPORT_REASON_OPTIONS.map((option) => (
              <label
                key={option.value}
                htmlFor={`${ids}-${option.value}`}
                className="flex cursor-pointer items-start gap-3 rounded-lg px-2 py-2 hover:bg-gray-50 has-[:checked]:bg-indigo-50 dark:hover:bg-gray-800 dark:has-[:checked]:bg-indigo-500/10"
              >
                <input
                  id={`${ids}-${option.value}`}
                  type="radio"
                  name={`${ids}-reason`}
                  value={option.value}
                  checked={reason === option.value}
                  onChange={() => {
                    setReason(option.value);
                    setProblem(null);
                  }}
                  disabled={sending}
                  aria-describedby={`${ids}-${option.value}-hint`}
                  className="mt-1 h-4 w-4 shrink-0 accent-indigo-600"
                />
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-gray-900 dark:text-gray-100">{option.label}</span>
                  <span id={`${ids}-${option.value}-hint`} className="block text-xs text-gray-600 dark:text-gray-400">
                    {option.hint}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <TextAreaField
          id={`${ids}-text`}
          label={reason === 'other' ? 'Details (required)' : 'Details (optional)'}
          value={text}
          onChange={(value) => {
            setText(value);
            if (textError) setProblem(null);
          }}
          maxLength={MAX_REPORT_TEXT_LENGTH}
          rows={3}
          placeholder="What is wrong with it?"
          required={reason === 'other'}
          disabled={sending}
          error={textError}
        />
        <DialogActions error={formError} busy={sending} onCancel={onClose} confirm="Send" busyLabel="Sending..." />
      </form>
    </Modal>
  );
}
