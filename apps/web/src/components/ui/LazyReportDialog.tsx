import { lazy, Suspense } from 'react';
import type { ReportDialogProps } from './ReportDialog';

const ReportDialog = lazy(() => import('./ReportDialog').then((m) => ({ default: m.ReportDialog })));

/**
 * The Report dialog, loaded when first opened: few readers ever report, so its form stays out of
 * the first load of the reading page (scripts/web-budget.mjs).
 */
export function LazyReportDialog(props: ReportDialogProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <ReportDialog {...props} />
    </Suspense>
  );
}
