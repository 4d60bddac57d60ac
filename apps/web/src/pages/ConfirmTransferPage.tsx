import { useParams } from 'react-router';
import { TransferConfirmation } from '../features/transfer/components/TransferConfirmation';
import { usePageTitle } from '../hooks/usePageTitle';

/** Account transfer confirmation (/confirm-transfer/{action}/{token}). */
export default function ConfirmTransferPage() {
  const { action = '', token = '' } = useParams();
  usePageTitle('Account transfer');
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <TransferConfirmation key={`${action}/${token}`} action={action} token={token} />
    </div>
  );
}
