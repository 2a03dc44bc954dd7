import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AnalyticsRevenue, Money } from '@parley/contracts';
import { CHANNEL_LABELS, moneyText } from '../model';

const moneyList = (money: Money[]) => (money.length ? money.map(moneyText).join(' + ') : '–');

/** What the bots brought: money where there is money, and the counts that carry none. */
export function Revenue({ revenue, refusal }: { revenue?: AnalyticsRevenue; refusal?: string }) {
  return (
    <Card component="section" aria-label="Revenue" sx={{ mb: 2 }}>
      <CardHeader title="Revenue your bots bring" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        {refusal ? <Alert severity="info">{refusal}</Alert> : null}
        {revenue ? (
          <>
            <Stack direction="row" spacing={4} flexWrap="wrap" useFlexGap sx={{ mb: 2 }}>
              <div>
                <Typography variant="body2" color="text.secondary">
                  Orders
                </Typography>
                <Typography variant="h5" component="p" data-testid="revenue-total">
                  {moneyList(revenue.revenue)}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {revenue.orders} orders
                </Typography>
              </div>
              <div>
                <Typography variant="body2" color="text.secondary">
                  Bookings
                </Typography>
                <Typography variant="h5" component="p">
                  {revenue.bookings}
                </Typography>
              </div>
              <div>
                <Typography variant="body2" color="text.secondary">
                  Leads
                </Typography>
                <Typography variant="h5" component="p">
                  {revenue.leads}
                </Typography>
              </div>
              <div>
                <Typography variant="body2" color="text.secondary">
                  Campaign replies
                </Typography>
                <Typography variant="h5" component="p">
                  {revenue.campaign_replies}
                </Typography>
              </div>
            </Stack>
            {revenue.by_bot.length > 0 && (
              <Table size="small" aria-label="Revenue by bot and channel" sx={{ mb: 2 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>Bot</TableCell>
                    <TableCell>Channel</TableCell>
                    <TableCell align="right">Orders</TableCell>
                    <TableCell align="right">Revenue</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {revenue.by_bot.map((row) => (
                    <TableRow key={`${row.bot_id}-${row.channel}`}>
                      <TableCell>{row.bot_name}</TableCell>
                      <TableCell>{CHANNEL_LABELS[row.channel] ?? row.channel}</TableCell>
                      <TableCell align="right">{row.orders}</TableCell>
                      <TableCell align="right">{moneyList(row.revenue)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <Typography variant="caption" color="text.secondary" data-testid="attribution-rule">
              {revenue.rule}
            </Typography>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
