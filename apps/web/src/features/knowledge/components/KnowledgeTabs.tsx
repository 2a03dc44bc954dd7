import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link, useLocation } from 'react-router';

/** The knowledge areas a bot is trained on; each is its own page under /bot/knowledge. */
export const KNOWLEDGE_TABS = [
  { path: '/bot/knowledge/files', label: 'Files' },
  { path: '/bot/knowledge/websites', label: 'Websites' },
  { path: '/bot/knowledge/notion', label: 'Notion' },
  { path: '/bot/knowledge/qna', label: 'Q&A' },
] as const;

/** Tabs between the knowledge pages; shown at the top of each. */
export function KnowledgeTabs() {
  const { pathname } = useLocation();
  const current = KNOWLEDGE_TABS.find((tab) => pathname.startsWith(tab.path))?.path ?? false;
  return (
    <Tabs value={current} aria-label="Knowledge sources" variant="scrollable" sx={{ mb: 3 }}>
      {KNOWLEDGE_TABS.map((tab) => (
        <Tab key={tab.path} value={tab.path} label={tab.label} component={Link} to={tab.path} />
      ))}
    </Tabs>
  );
}
