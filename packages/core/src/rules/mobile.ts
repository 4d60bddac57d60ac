import { MOBILE_USER_AGENT } from '../constants';

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_USER_AGENT.test(userAgent);
}
