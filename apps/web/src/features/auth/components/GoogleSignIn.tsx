import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import { useEffect, useRef } from 'react';
import { useAuthConfigQuery, useOauthLoginMutation } from '../api';

type GoogleId = {
  initialize: (options: { client_id: string; callback: (response: { credential: string }) => void }) => void;
  renderButton: (element: HTMLElement, options: Record<string, unknown>) => void;
};
type GoogleWindow = Window & { google?: { accounts: { id: GoogleId } } };

const SCRIPT_SRC = 'https://accounts.google.com/gsi/client';

function loadScript(): Promise<void> {
  return new Promise((resolve, reject) => {
    if ((window as GoogleWindow).google) return resolve();
    const script = document.createElement('script');
    script.src = SCRIPT_SRC;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Google sign-in failed to load'));
    document.head.append(script);
  });
}

/**
 * "Sign in with Google", shown only when the server has a Google client id (GET /auth/config, from
 * GOOGLE_clientId); the ID token goes to POST /auth/oauth/login, which answers like a login.
 */
export function GoogleSignIn() {
  const ref = useRef<HTMLDivElement>(null);
  const [oauthLogin] = useOauthLoginMutation();
  const clientId = useAuthConfigQuery().data?.google_client_id;
  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadScript()
      .then(() => {
        const google = (window as GoogleWindow).google;
        if (cancelled || !google || !ref.current || !clientId) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: ({ credential }) => void oauthLogin({ provider: 'google', id_token: credential }),
        });
        google.accounts.id.renderButton(ref.current, { theme: 'outline', size: 'large', width: 320 });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [oauthLogin, clientId]);
  if (!clientId) return null;
  return (
    <>
      <Divider>or</Divider>
      <Box ref={ref} sx={{ display: 'flex', justifyContent: 'center', minHeight: 44 }} />
    </>
  );
}
