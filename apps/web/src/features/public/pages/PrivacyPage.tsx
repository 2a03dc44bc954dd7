import { PublicPage, type Sections } from '../components/PublicPage';

const SECTIONS: Sections = [
  [
    'What we collect',
    'Your account details (name, email, username), the content you upload to train your bots, the conversations your bots hold, and technical logs needed to run the service.',
  ],
  [
    'How we use it',
    'To run your bots, answer your visitors, secure your account and send you the emails you ask for (invitations, codes, notifications). We do not sell your data.',
  ],
  [
    'Where it lives',
    'In the database of the Parley deployment you use. Secrets such as channel tokens are encrypted at rest.',
  ],
  [
    'Your choices',
    'You can edit your profile, delete users of your workspace, and ask us to delete your workspace through the contact page.',
  ],
];

/** /privacy: the privacy policy, linked from the footer. */
export function PrivacyPage() {
  return (
    <PublicPage
      title="Privacy Policy"
      intro="How Parley handles your data and your visitors' data."
      sections={SECTIONS}
    />
  );
}
