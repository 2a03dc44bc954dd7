import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { Addon } from '@parley/contracts';
import { useId } from 'react';
import { TextInput } from '../../../shared/components/TextInput';
import { ADDON_QUANTITY, addonAdds, formatMoney, parseQuantity } from '../model';
import { Section } from './Section';

type Props = {
  addons: Addon[];
  quantities: Record<number, string>;
  onQuantity: (addonId: number, text: string) => void;
  highlighted: number | null;
  canBuy: boolean;
  busy: boolean;
  onAdd: (addon: Addon, quantity: number) => void;
};

/** Add-ons on offer, each with a quantity and its monthly total. */
export function AddonShop({ addons, quantities, onQuantity, highlighted, canBuy, busy, onAdd }: Props) {
  if (addons.length === 0) return null;
  return (
    <Section title="Add-ons">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
        {addons.map((addon) => (
          <AddonCard
            key={addon.id}
            addon={addon}
            text={quantities[addon.id] ?? '1'}
            onText={(text) => onQuantity(addon.id, text)}
            highlighted={highlighted === addon.id}
            canBuy={canBuy}
            busy={busy}
            onAdd={onAdd}
          />
        ))}
      </Box>
    </Section>
  );
}

function AddonCard({
  addon,
  text,
  onText,
  highlighted,
  canBuy,
  busy,
  onAdd,
}: {
  addon: Addon;
  text: string;
  onText: (text: string) => void;
  highlighted: boolean;
  canBuy: boolean;
  busy: boolean;
  onAdd: (addon: Addon, quantity: number) => void;
}) {
  const titleId = useId();
  const inputId = useId();
  const quantity = parseQuantity(text);
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ display: 'flex', flexDirection: 'column', borderColor: highlighted ? 'primary.main' : undefined }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography id={titleId} variant="subtitle1" component="h3" fontWeight={600} sx={{ flex: 1 }}>
            {addon.name}
          </Typography>
          {highlighted ? <Chip size="small" color="secondary" label="Selected" /> : null}
        </Box>
        {addon.description ? (
          <Typography variant="body2" color="text.secondary">
            {addon.description}
          </Typography>
        ) : null}
        <Typography variant="body2" sx={{ mt: 1 }}>
          {formatMoney(addon.price_monthly, addon.currency)} a month each
        </Typography>
        <Box sx={{ mt: 2 }}>
          <TextInput
            id={inputId}
            label={`Quantity of ${addon.name}`}
            value={text}
            onChange={(event) => onText(event.target.value)}
            inputProps={{ inputMode: 'numeric', min: ADDON_QUANTITY.min, max: ADDON_QUANTITY.max }}
            type="number"
            error={quantity === null}
            helperText={
              quantity === null
                ? `A whole number from ${ADDON_QUANTITY.min} to ${ADDON_QUANTITY.max}`
                : `${addonAdds(addon, quantity)} for ${formatMoney(addon.price_monthly * quantity, addon.currency)} a month`
            }
          />
        </Box>
      </CardContent>
      <CardActions sx={{ p: 2, pt: 0 }}>
        <Button
          variant="outlined"
          fullWidth
          aria-label={`Add ${addon.name}`}
          disabled={!canBuy || busy || quantity === null}
          onClick={() => quantity !== null && onAdd(addon, quantity)}
        >
          Add
        </Button>
      </CardActions>
    </Card>
  );
}
