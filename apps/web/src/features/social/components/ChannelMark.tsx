import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import type { SocialChannel } from '@parley/contracts';

/** The channel's mark in its brand colour, named for screen readers. */
export function ChannelMark({
  channel,
  fontSize = 'medium',
}: {
  channel: SocialChannel;
  fontSize?: 'small' | 'medium';
}) {
  return channel === 'instagram' ? (
    <InstagramIcon titleAccess="Instagram" fontSize={fontSize} sx={{ color: '#C13584' }} />
  ) : (
    <FacebookIcon titleAccess="Messenger" fontSize={fontSize} sx={{ color: '#0084FF' }} />
  );
}
