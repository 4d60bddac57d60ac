import type { TransferResultData } from '@inkwell/core';
import { apiRequest } from '../../../lib/api';

export interface TransferConfirmResponse {
  success: true;
  message: string;
  data: TransferResultData;
}

/** GET /confirm-transfer/{action}/{token} → {success, message, data}; 400 for a bad or used link. */
export function confirmTransfer(action: string, token: string): Promise<TransferConfirmResponse> {
  return apiRequest<TransferConfirmResponse>(`/confirm-transfer/${encodeURIComponent(action)}/${encodeURIComponent(token)}`);
}
