import ShoppingBag from '@mui/icons-material/ShoppingBag';
import Storefront from '@mui/icons-material/Storefront';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { StorePlatform } from '@parley/contracts';
import { PLATFORM_LABELS } from '../model';

export const PLATFORM_COLORS: Record<StorePlatform, string> = {
  shopify: '#5E8E3E',
  woocommerce: '#7F54B3',
};

/** The platform's mark: a storefront for Shopify, a bag for WooCommerce, in their colours. */
export function PlatformIcon({ platform, ...props }: { platform: StorePlatform } & SvgIconProps) {
  const Icon = platform === 'shopify' ? Storefront : ShoppingBag;
  return (
    <Icon
      titleAccess={PLATFORM_LABELS[platform]}
      {...props}
      sx={{ color: PLATFORM_COLORS[platform], ...props.sx }}
    />
  );
}
