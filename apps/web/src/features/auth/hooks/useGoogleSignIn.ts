import { isMobileUserAgent } from '@inkwell/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { fetchGoogleConfig, fetchGoogleNonce, type GoogleConfig, googleAuth, googleConfigKey, useGoogleConfig } from '../api/google';
import {
  authorizationUrl,
  CALLBACK_PATH,
  type CallbackCheck,
  type CallbackMessage,
  CHANNEL_NAME,
  checkCallback,
  GOOGLE_TEXT,
  type GoogleCallback,
  isCallbackMessage,
  MESSAGE_TYPE,
  modeOfState,
  newState,
  parseCallback,
  REDIRECT_STORAGE_KEY,
} from '../lib/googleFlow';
import { DEFAULT_AFTER_SIGNIN, safeReturnPath } from '../lib/returnTo';

const nonceKey = ['google-auth', 'nonce'] as const;
/** The server accepts a nonce for 10 minutes; a prefetched one is used only while well inside that. */
const NONCE_FRESH_MS = 7 * 60_000;
const NONCE_REFRESH_MS = 5 * 60_000;
/** How long a popup's answer is waited for (the nonce's lifetime). */
const POPUP_WAIT_MS = 10 * 60_000;
const POPUP_NAME = 'inkwell-google-signin';

const isMobile = () => typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);

/** This page is a popup that came back from the issuer (pure read, safe during render). */
function isPopupLanding(): boolean {
  if (typeof window === 'undefined' || window.location.pathname !== CALLBACK_PATH) return false;
  return modeOfState(parseCallback(window.location.hash)?.state) === 'popup';
}

let landingTaken = false;
/** The issuer's answer in this page's URL: handed out once per page load and removed from the URL. */
function takeLandingCallback(): GoogleCallback | null {
  if (landingTaken || window.location.pathname !== CALLBACK_PATH) return null;
  landingTaken = true;
  const callback = parseCallback(window.location.hash);
  if (callback) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return callback;
}

/** In the popup: give the answer to the tab that opened it (same origin only), then close. */
function deliverToOpener(callback: GoogleCallback): void {
  const message: CallbackMessage = { type: MESSAGE_TYPE, callback };
  let delivered = false;
  try {
    const opener = window.opener as Window | null;
    if (opener && opener !== window && opener.location.origin === window.location.origin) {
      opener.postMessage(message, window.location.origin);
      delivered = true;
    }
  } catch {
    // A cross-origin opener: never talk to it.
  }
  if (!delivered && typeof BroadcastChannel !== 'undefined') {
    // The opener link can be cut by the browser (opener policies); the tab still listens here.
    const channel = new BroadcastChannel(CHANNEL_NAME);
    channel.postMessage(message);
    channel.close();
  }
  window.close();
}

/** What the redirect flow kept across the trip to the issuer: its state, and the page to return to. */
function readRedirectState(): { state: string | null; returnTo: string | null } {
  try {
    const raw = window.sessionStorage.getItem(REDIRECT_STORAGE_KEY);
    window.sessionStorage.removeItem(REDIRECT_STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as { state?: unknown; returnTo?: unknown }) : null;
    return { state: typeof parsed?.state === 'string' ? parsed.state : null, returnTo: safeReturnPath(parsed?.returnTo) };
  } catch {
    return { state: null, returnTo: null };
  }
}

function popupFeatures(): string {
  const width = 500;
  const height = 640;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

const requestFor = (config: GoogleConfig, nonce: string, state: string) =>
  authorizationUrl({
    authorizationEndpoint: config.authorizationEndpoint!,
    clientId: config.clientId!,
    redirectUri: `${window.location.origin}${CALLBACK_PATH}`,
    nonce,
    state,
  });

/**
 * Google sign-in of the auth screen (SPEC.md 2): a popup on desktops, a full-page redirect on
 * phones and tablets whose answer is picked up when the screen loads. `loading` drives the spinner.
 * Once signed in it goes to `returnTo` (the page that sent the person to sign in; kept across the
 * redirect in session storage), else to / (SPEC.md 2).
 */
export function useGoogleSignIn(returnTo: string | null = null) {
  const navigate = useNavigate();
  const login = useSession((s) => s.login);
  const queryClient = useQueryClient();
  const [popupLanding] = useState(isPopupLanding);
  const [loading, setLoading] = useState(popupLanding);
  const mobile = isMobile();

  const config = useGoogleConfig(!popupLanding);
  const configReady = config.data?.enabled === true;
  // Prefetched so a desktop click can open the popup straight away (popup blockers want that).
  const nonce = useQuery({
    queryKey: nonceKey,
    queryFn: fetchGoogleNonce,
    enabled: configReady && !mobile && !popupLanding,
    staleTime: NONCE_REFRESH_MS,
    refetchInterval: NONCE_REFRESH_MS,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const usedNonces = useRef(new Set<string>());
  const pending = useRef<(() => void) | null>(null);

  const finish = useCallback(
    async (check: CallbackCheck, target: string | null) => {
      if (!check.ok) {
        toast.error(check.message);
        setLoading(false);
        return;
      }
      setLoading(true);
      try {
        const data = await googleAuth(check.idToken);
        login(data.user);
        toast.success(data.message);
        const next = safeReturnPath(target);
        if (next) navigate(next, { replace: true });
        else navigate(DEFAULT_AFTER_SIGNIN);
      } catch (error) {
        toast.error(errorMessage(error, GOOGLE_TEXT.failed));
        setLoading(false);
      }
    },
    [login, navigate],
  );

  const loadConfig = useCallback(
    () => queryClient.fetchQuery({ queryKey: googleConfigKey, queryFn: fetchGoogleConfig, retry: false, staleTime: 10 * 60_000 }),
    [queryClient],
  );

  /** Listens for the popup's answer (window message from the popup, or the broadcast fallback). */
  const waitForPopup = useCallback(
    (popup: Window, state: string, target: string | null) => {
      const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CHANNEL_NAME) : null;
      const onAnswer = (data: unknown) => {
        if (!isCallbackMessage(data) || data.callback.state !== state) return;
        stop();
        void finish(checkCallback(data.callback, state, 'popup'), target);
      };
      const onMessage = (event: MessageEvent) => {
        if (event.origin === window.location.origin) onAnswer(event.data);
      };
      const onBroadcast = (event: MessageEvent) => onAnswer(event.data);
      // Closed without an answer: the person gave up; stop the spinner but keep listening a while.
      const poll = window.setInterval(() => {
        if (!popup.closed) return;
        window.clearInterval(poll);
        setLoading(false);
      }, 500);
      const timeout = window.setTimeout(() => stop(), POPUP_WAIT_MS);
      function stop() {
        window.removeEventListener('message', onMessage);
        channel?.removeEventListener('message', onBroadcast);
        channel?.close();
        window.clearInterval(poll);
        window.clearTimeout(timeout);
        if (pending.current === stop) pending.current = null;
      }
      window.addEventListener('message', onMessage);
      channel?.addEventListener('message', onBroadcast);
      pending.current = stop;
    },
    [finish],
  );

  const startPopup = useCallback(async () => {
    const known = config.data;
    if (known && !known.enabled) {
      toast.error(GOOGLE_TEXT.notConfigured);
      return;
    }
    pending.current?.();
    const state = newState('popup');
    const prefetched = nonce.data && Date.now() - nonce.dataUpdatedAt < NONCE_FRESH_MS ? nonce.data.nonce : null;
    const ready = known?.enabled && prefetched && !usedNonces.current.has(prefetched) ? prefetched : null;
    // Opened synchronously in the click; when something is still loading, it starts blank.
    const popup = window.open(ready && known ? requestFor(known, ready, state) : 'about:blank', POPUP_NAME, popupFeatures());
    if (!popup) {
      toast.error(GOOGLE_TEXT.popupFailed);
      return;
    }
    setLoading(true);
    waitForPopup(popup, state, returnTo);
    if (ready) {
      usedNonces.current.add(ready);
      void nonce.refetch();
      return;
    }
    try {
      const loaded = await loadConfig();
      if (!loaded.enabled) {
        pending.current?.();
        popup.close();
        toast.error(GOOGLE_TEXT.notConfigured);
        setLoading(false);
        return;
      }
      const fresh = await fetchGoogleNonce();
      usedNonces.current.add(fresh.nonce);
      popup.location.replace(requestFor(loaded, fresh.nonce, state));
    } catch {
      pending.current?.();
      popup.close();
      toast.error(GOOGLE_TEXT.popupFailed);
      setLoading(false);
    }
  }, [config.data, nonce, loadConfig, waitForPopup, returnTo]);

  const startRedirect = useCallback(async () => {
    const known = config.data;
    if (known && !known.enabled) {
      toast.error(GOOGLE_TEXT.notConfigured);
      return;
    }
    setLoading(true);
    try {
      const loaded = await loadConfig();
      if (!loaded.enabled) {
        toast.error(GOOGLE_TEXT.notConfigured);
        setLoading(false);
        return;
      }
      const { nonce: fresh } = await fetchGoogleNonce();
      const state = newState('redirect');
      window.sessionStorage.setItem(REDIRECT_STORAGE_KEY, JSON.stringify({ state, at: Date.now(), returnTo }));
      // The spinner stays while the page leaves for the issuer.
      window.location.assign(requestFor(loaded, fresh, state));
    } catch {
      toast.error(GOOGLE_TEXT.failed);
      setLoading(false);
    }
  }, [config.data, loadConfig, returnTo]);

  const start = useCallback(() => {
    if (loading) return;
    void (mobile ? startRedirect() : startPopup());
  }, [loading, mobile, startPopup, startRedirect]);

  // The issuer's answer in this page's URL: a popup hands it over; a redirect is finished here.
  useEffect(() => {
    const callback = takeLandingCallback();
    if (!callback) return;
    if (modeOfState(callback.state) === 'popup') {
      deliverToOpener(callback);
      setLoading(false);
      return;
    }
    const kept = readRedirectState();
    void finish(checkCallback(callback, kept.state, 'redirect'), kept.returnTo);
  }, [finish]);

  // Back from the issuer through the back/forward cache: the page is live again, not loading.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLoading(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  useEffect(() => () => pending.current?.(), []);

  return { start, loading };
}
