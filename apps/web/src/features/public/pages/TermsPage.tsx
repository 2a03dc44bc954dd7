import { PublicPage, type Sections } from '../components/PublicPage';

const SECTIONS: Sections = [
  [
    'Your account',
    'You are responsible for the activity of your workspace and for keeping your credentials safe.',
  ],
  [
    'Your content',
    'You keep the rights to what you upload. You give Parley the right to process it to train and run your bots.',
  ],
  [
    'Acceptable use',
    'Do not use Parley to send spam, to mislead people, or to process content you have no right to use.',
  ],
  [
    'Plans and billing',
    'Paid plans renew until cancelled. Limits of each plan are shown on the subscription pages.',
  ],
];

/** /terms: the terms of service, linked from the footer. */
export function TermsPage() {
  return <PublicPage title="Terms of Service" intro="The rules of using Parley." sections={SECTIONS} />;
}
