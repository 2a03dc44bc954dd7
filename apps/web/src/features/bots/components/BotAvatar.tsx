import Avatar from '@mui/material/Avatar';
import { readableOn } from '@parley/chat-client';

type Props = { name: string; image: string | null; color: string; size?: number };

/** The bot's profile image, else its initial on the brand colour. */
export function BotAvatar({ name, image, color, size = 48 }: Props) {
  return (
    <Avatar
      src={image ?? undefined}
      alt={name}
      sx={{
        width: size,
        height: size,
        bgcolor: color,
        color: readableOn(color),
        border: 1,
        borderColor: 'divider',
        fontWeight: 600,
      }}
    >
      {name.trim().charAt(0).toUpperCase() || 'B'}
    </Avatar>
  );
}
