import Button from '@mui/material/Button';
import { type OnboardBody, WHATSAPP_TEXTS, type WhatsAppAccount } from '@parley/contracts';
import { useEffect, useRef, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useIntegrationStatusQuery } from '../../integrations/api';
import { canConnect, IntegrationNotice } from '../../integrations/components/IntegrationNotice';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useLazySignupConfigQuery, useOnboardMutation } from '../api';
import { CALLBACK_PATH, CODE_CHANNEL, codeOf, type SignupIds, signupIdsOf } from '../signup';

type Pending = { ids: SignupIds | null; code: string | null; dialogOrigin: string; redirectUri: string };

/** Account errors: the server's detail, else the error's own text (spec, WhatsApp). */
export function accountErrorText(error: unknown): string {
  const detail = serverDetail(error);
  if (detail) return detail;
  if (error && typeof error === 'object' && 'error' in error && typeof error.error === 'string')
    return error.error;
  return WHATSAPP_TEXTS.onboardFailed;
}

/**
 * "Connect a WhatsApp number": Meta's embedded signup in a popup. The popup posts the business
 * account and number ids (from Meta's origin) and, through /whatsapp/callback, the code (from ours);
 * with all three the number is onboarded. Without a signup configuration: a lasting notice naming the
 * operator's guide, and the button disabled (no field asks an owner for what only Meta hands over).
 */
export function ConnectNumber({ onConnected }: { onConnected: (account: WhatsAppAccount) => void }) {
  const ability = useAbility();
  const notify = useNotify();
  const [loadConfig, config] = useLazySignupConfigQuery();
  const [onboard, onboarding] = useOnboardMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  const status = useIntegrationStatusQuery().data?.integrations.find((i) => i.key === 'whatsapp');
  const popup = useRef<Window | null>(null);
  const finishing = useRef(false);

  useEffect(() => {
    // Read early, so the click opens the popup at once (browsers block late popups).
    void loadConfig(undefined, true);
  }, [loadConfig]);

  const finish = async (body: OnboardBody) => {
    try {
      const result = await onboard(body).unwrap();
      notify.success(result.message);
      onConnected(result.account);
    } catch (error) {
      notify.error(accountErrorText(error));
    }
  };

  useEffect(() => {
    if (!pending) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin === pending.dialogOrigin) {
        const ids = signupIdsOf(event.data);
        if (ids) setPending((p) => (p ? { ...p, ids } : p));
        return;
      }
      if (event.origin !== window.location.origin) return;
      const outcome = codeOf(event.data);
      if (!outcome) return;
      if ('code' in outcome) setPending((p) => (p ? { ...p, code: outcome.code } : p));
      else {
        notify.error(outcome.error ?? WHATSAPP_TEXTS.codeMissing);
        setPending(null);
      }
    };
    window.addEventListener('message', onMessage);
    // The callback page posts the code here too, in case the popup lost its opener.
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CODE_CHANNEL);
    channel?.addEventListener('message', (event) =>
      onMessage(new MessageEvent('message', { data: event.data, origin: window.location.origin })),
    );
    return () => {
      window.removeEventListener('message', onMessage);
      channel?.close();
    };
  }, [pending, notify]);

  // Both halves in: onboard once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the pending signup changes, not when finish does
  useEffect(() => {
    if (!pending?.ids || !pending.code || finishing.current) return;
    finishing.current = true;
    const { ids, code, redirectUri } = pending;
    void finish({
      code,
      waba_id: ids.waba_id,
      phone_number_id: ids.phone_number_id,
      redirect_uri: redirectUri,
    }).finally(() => {
      finishing.current = false;
      setPending(null);
    });
  }, [pending]);

  if (!ability.can('create', 'Create Bot')) return null;

  const onConnect = async () => {
    let data = config.data;
    if (!data) {
      try {
        data = await loadConfig(undefined, true).unwrap();
      } catch (error) {
        notify.error(accountErrorText(error));
        return;
      }
    }
    if (!data.configured || !data.dialog_url) {
      // The button is disabled then; the card's notice says why.
      notify.error(WHATSAPP_TEXTS.notConfigured);
      return;
    }
    const dialog = new URL(data.dialog_url);
    const state = crypto.randomUUID();
    const redirectUri =
      dialog.searchParams.get('redirect_uri') ?? `${window.location.origin}${CALLBACK_PATH}`;
    finishing.current = false;
    popup.current = window.open(
      `${data.dialog_url}&state=${state}`,
      'parley-whatsapp-signup',
      'width=640,height=760',
    );
    if (!popup.current) {
      notify.error('The signup window was blocked: allow pop-ups for this site and try again.');
      return;
    }
    setPending({ ids: null, code: null, dialogOrigin: dialog.origin, redirectUri });
  };

  return (
    <>
      <IntegrationNotice status={status} />
      {pending ? (
        // Whether the popup is still open cannot be told once it has been to Meta's origin: the
        // person cancels here instead, or simply starts again.
        <Button onClick={() => setPending(null)} aria-label="Cancel the WhatsApp signup">
          Waiting for the signup… Cancel
        </Button>
      ) : null}
      <Button
        variant="contained"
        onClick={onConnect}
        disabled={onboarding.isLoading || !status || !canConnect(status) || config.data?.configured === false}
      >
        {onboarding.isLoading ? 'Connecting…' : 'Connect a WhatsApp number'}
      </Button>
    </>
  );
}
