import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { MessageLimit, PlanConsumption } from '@parley/contracts';
import {
  characterSources,
  formatCount,
  formatDate,
  percentUsed,
  retentionText,
  usageColor,
  usageRows,
} from '../model';
import { Section } from './Section';

const SOURCE_COLORS = ['primary.main', 'secondary.main', 'success.main', 'warning.main'];

/**
 * What the workspace uses against each limit of its plan (add-ons included): bots, team, this
 * month's messages as bars; trained characters stacked by kind of source; history retention in words.
 */
export function UsagePanel({
  consumption,
  messages,
}: {
  consumption: PlanConsumption;
  messages?: MessageLimit | null;
}) {
  const rows = usageRows(consumption, messages);
  // Plans off: bots, team and characters have no limit; only the install's message allowance counts.
  const noLimit = (key: string) => consumption.unlimited && key !== 'messages';
  const { sources, total } = characterSources(consumption);
  const perBot = consumption.limits.trained_characters_per_chatbot;
  const allowance = perBot * Math.max(1, consumption.max_chatbots);
  const characterPercent = percentUsed(total, allowance);
  return (
    <Section title="Usage">
      <Stack spacing={2.5}>
        {rows.map((row) => (
          <Box key={row.key}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
              <Typography variant="body2" fontWeight={500}>
                {row.label}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {noLimit(row.key)
                  ? `${formatCount(row.used)} · no limit`
                  : `${formatCount(row.used)} of ${formatCount(row.limit)}`}
              </Typography>
            </Box>
            {noLimit(row.key) ? null : (
              <LinearProgress
                variant="determinate"
                value={row.percent}
                color={usageColor(row.percent)}
                aria-label={`${row.label} used`}
                aria-valuetext={`${formatCount(row.used)} of ${formatCount(row.limit)}`}
                sx={{ height: 8, borderRadius: 4, mt: 0.5 }}
              />
            )}
            {row.key === 'messages' && messages ? (
              <Typography variant="caption" color="text.secondary">
                The count starts again on {formatDate(messages.period_end)}.
              </Typography>
            ) : null}
          </Box>
        ))}

        <Box>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
            <Typography variant="body2" fontWeight={500}>
              Trained characters
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {consumption.unlimited
                ? `${formatCount(total)} in all; no limit per bot`
                : `${formatCount(total)} in all; ${formatCount(perBot)} allowed per bot`}
            </Typography>
          </Box>
          <Box
            role="meter"
            aria-label="Trained characters by source"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={characterPercent}
            aria-valuetext={sources.map((s) => `${s.label} ${formatCount(s.characters)}`).join(', ')}
            sx={{
              display: 'flex',
              height: 8,
              borderRadius: 4,
              overflow: 'hidden',
              bgcolor: 'action.hover',
              mt: 0.5,
            }}
          >
            {sources.map((source, i) =>
              source.characters > 0 ? (
                <Tooltip key={source.key} title={`${source.label}: ${formatCount(source.characters)}`}>
                  <Box
                    sx={{
                      flex: `0 0 ${percentUsed(source.characters, allowance)}%`,
                      bgcolor: SOURCE_COLORS[i % SOURCE_COLORS.length],
                    }}
                  />
                </Tooltip>
              ) : null,
            )}
          </Box>
          <Box
            component="ul"
            sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'flex', flexWrap: 'wrap', gap: 2 }}
          >
            {sources.map((source, i) => (
              <Box component="li" key={source.key} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
                <Box
                  aria-hidden
                  sx={{
                    width: 10,
                    height: 10,
                    borderRadius: '2px',
                    bgcolor: SOURCE_COLORS[i % SOURCE_COLORS.length],
                  }}
                />
                <Typography variant="caption">
                  {source.label}: {formatCount(source.characters)}
                </Typography>
              </Box>
            ))}
          </Box>
        </Box>

        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <Typography variant="body2" fontWeight={500}>
            Chat history kept
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {retentionText(consumption.limits.chat_history_retention)}
          </Typography>
        </Box>
      </Stack>
    </Section>
  );
}
