import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

export const BOT_TABS = [
  { id: 'knowledge', label: 'Knowledge' },
  { id: 'instructions', label: 'Instructions & model' },
  { id: 'appearance', label: 'Appearance' },
  { id: 'calendar', label: 'Calendar booking' },
  { id: 'leads', label: 'Leads' },
  { id: 'embed', label: 'Embed' },
] as const;
export type BotTabId = (typeof BOT_TABS)[number]['id'];

export function botTab(value: string | null): BotTabId {
  return BOT_TABS.find((tab) => tab.id === value)?.id ?? 'knowledge';
}

/** The sections of a bot's page. */
export function BotTabs({ value, onChange }: { value: BotTabId; onChange: (tab: BotTabId) => void }) {
  return (
    <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
      <Tabs
        value={value}
        onChange={(_event, next: BotTabId) => onChange(next)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Bot sections"
      >
        {BOT_TABS.map((tab) => (
          <Tab
            key={tab.id}
            value={tab.id}
            label={tab.label}
            id={`bot-tab-${tab.id}`}
            aria-controls="bot-tab-panel"
          />
        ))}
      </Tabs>
    </Box>
  );
}
