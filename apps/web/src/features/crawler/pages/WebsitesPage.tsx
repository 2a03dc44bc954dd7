import Typography from '@mui/material/Typography';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';

/** Knowledge: Websites. (Being built.) */
export function WebsitesPage() {
  return (
    <>
      <KnowledgeTabs />
      <Typography variant="h5">Websites</Typography>
    </>
  );
}
