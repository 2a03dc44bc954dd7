import Typography from '@mui/material/Typography';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';

/** Knowledge: Notion. (Being built.) */
export function NotionPage() {
  return (
    <>
      <KnowledgeTabs />
      <Typography variant="h5">Notion</Typography>
    </>
  );
}
