import { PlaceholderPage } from '../components/PlaceholderPage';

/** Account transfer confirmation (/confirm-transfer/{action}/{token}); built in the transfer issue. */
export default function ConfirmTransferPage() {
  return <PlaceholderPage title="Transfer Confirmation" />;
}
