import Typography from '@mui/material/Typography';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';

/** Knowledge: Q&A. (Being built.) */
export function QnaPage() {
  return (
    <>
      <KnowledgeTabs />
      <Typography variant="h5">Q&A</Typography>
    </>
  );
}
