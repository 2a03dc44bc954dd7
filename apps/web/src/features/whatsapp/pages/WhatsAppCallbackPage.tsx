import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { CODE_CHANNEL, CODE_MESSAGE } from '../signup';

/**
 * Where Meta's signup popup lands (/whatsapp/callback?code=…): hands the code to the console that
 * opened it and closes. Outside the app shell: it needs no menu or session. The code goes over a
 * same-origin BroadcastChannel as well as to window.opener: coming back from Meta's origin, the
 * popup may have lost its opener (Cross-Origin-Opener-Policy), while the channel always reaches the
 * console's tab.
 */
export function WhatsAppCallbackPage() {
  const [text, setText] = useState('Finishing the WhatsApp signup…');
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const code = params.get('code');
    const denied = params.get('error_description') ?? params.get('error');
    const message = code ? { type: CODE_MESSAGE, code } : { type: CODE_MESSAGE, code: null, error: denied };
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CODE_CHANNEL);
    channel?.postMessage(message);
    channel?.close();
    const opener = window.opener as Window | null;
    opener?.postMessage(message, window.location.origin);
    if (!code) {
      setText(denied ? `The signup was not completed: ${denied}` : 'The signup did not return a code.');
      return;
    }
    setText('Your number is being connected. You can close this window.');
    window.close();
  }, []);
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240, p: 3 }}>
      <Typography>{text}</Typography>
    </Box>
  );
}
