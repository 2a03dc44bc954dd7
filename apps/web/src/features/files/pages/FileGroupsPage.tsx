import Typography from '@mui/material/Typography';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';

/** Knowledge: Files. (Being built.) */
export function FileGroupsPage() {
  return (
    <>
      <KnowledgeTabs />
      <Typography variant="h5">Files</Typography>
    </>
  );
}
