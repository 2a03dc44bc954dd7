import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { PageHeader } from './PageHeader';

type Props = { title: string; description: string };

/** A guarded page whose screen arrives with a later issue: the route, menu and permission work now. */
export function ComingSoon({ title, description }: Props) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <CardContent>
          <Typography color="text.secondary">{description}</Typography>
        </CardContent>
      </Card>
    </>
  );
}
