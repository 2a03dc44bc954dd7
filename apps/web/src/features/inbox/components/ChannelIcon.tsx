import Facebook from '@mui/icons-material/Facebook';
import Instagram from '@mui/icons-material/Instagram';
import Language from '@mui/icons-material/Language';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type { SvgIconProps } from '@mui/material/SvgIcon';

export const CHANNEL_LABELS: Record<string, string> = {
  bot: 'Web',
  instagram: 'Instagram',
  messenger: 'Messenger',
  whatsapp: 'WhatsApp',
};

/** Where the visitor writes from: the website (web), Instagram, Messenger or WhatsApp. */
export function ChannelIcon({ channel, ...props }: { channel: string } & SvgIconProps) {
  const label = CHANNEL_LABELS[channel] ?? 'Web';
  const common = { ...props, titleAccess: label, 'data-channel': channel } as SvgIconProps;
  if (channel === 'instagram') return <Instagram {...common} />;
  if (channel === 'messenger') return <Facebook {...common} />;
  if (channel === 'whatsapp') return <WhatsApp {...common} />;
  return <Language {...common} />;
}
