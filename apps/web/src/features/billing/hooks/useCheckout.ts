import type { Checkout } from '@parley/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { checkoutTarget, returnUrlFor } from '../model';

type RazorpayResponse = {
  razorpay_payment_id?: string;
  razorpay_subscription_id?: string;
  razorpay_signature?: string;
};
type RazorpayOptions = {
  key: string;
  subscription_id: string;
  name: string;
  description: string;
  prefill: { email: string; name: string };
  handler: (response: RazorpayResponse) => void;
  modal?: { ondismiss?: () => void };
};
type RazorpayConstructor = new (options: RazorpayOptions) => { open: () => void };

const loaded = new Map<string, Promise<void>>();

/** Razorpay's checkout.js, once per page. */
function loadScript(src: string): Promise<void> {
  const existing = loaded.get(src);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loaded.delete(src);
      reject(new Error('Razorpay Checkout could not be loaded'));
    };
    document.body.appendChild(script);
  });
  loaded.set(src, promise);
  return promise;
}

export type CheckoutOutcome = 'redirected' | 'paid' | 'dismissed';

/**
 * Takes the payment for a subscription just created. A checkout page (the test fake's) is opened in
 * this tab and comes back to /upgrade with the subscription id; Razorpay's Checkout (production) opens
 * over the page and its handler brings the same address. /upgrade then waits for the webhook.
 */
export function useCheckout(): (checkout: Checkout) => Promise<CheckoutOutcome> {
  const navigate = useNavigate();
  return useCallback(
    async (checkout: Checkout) => {
      const target = checkoutTarget(checkout, returnUrlFor(window.location.origin));
      if (target.kind === 'page') {
        window.location.assign(target.url);
        return 'redirected';
      }
      await loadScript(target.url);
      const Razorpay = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
      if (!Razorpay) throw new Error('Razorpay Checkout could not be loaded');
      return new Promise<CheckoutOutcome>((resolve) => {
        new Razorpay({
          key: checkout.key_id,
          subscription_id: checkout.subscription_id,
          name: checkout.name,
          description: checkout.description,
          prefill: checkout.prefill,
          handler: (response) => {
            const id = response.razorpay_subscription_id ?? checkout.subscription_id;
            const back = new URL(returnUrlFor(window.location.origin, id, 'paid'));
            navigate(`${back.pathname}${back.search}`, { replace: true });
            resolve('paid');
          },
          modal: { ondismiss: () => resolve('dismissed') },
        }).open();
      });
    },
    [navigate],
  );
}
