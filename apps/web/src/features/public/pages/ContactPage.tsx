import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import { ContactBody } from '@parley/contracts';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useSendContactMutation } from '../api';
import { PublicPage } from '../components/PublicPage';

/** /contact: a message to the Parley team, kept by the server (POST /api/contact). */
export function ContactPage() {
  const [send, { error, isLoading, data }] = useSendContactMutation();
  const notify = useNotify();
  const form = useZodForm(ContactBody, { defaultValues: { name: '', email: '', subject: '', message: '' } });
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await send(body);
    if ('data' in result && result.data) {
      notify.success(result.data.message);
      form.reset();
    }
  });
  return (
    <PublicPage
      title="Contact us"
      intro="Questions about Parley, billing or your account? Write to us and we'll answer by email."
    >
      <Card>
        <CardContent>
          <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Contact form">
            {data ? <Alert severity="success">{data.message}</Alert> : null}
            {error ? <Alert severity="error">{serverDetail(error)}</Alert> : null}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput label="Name" autoComplete="name" {...fieldProps(form, 'name')} />
              <TextInput label="Email" type="email" autoComplete="email" {...fieldProps(form, 'email')} />
            </Stack>
            <TextInput label="Subject (optional)" {...fieldProps(form, 'subject', { optional: true })} />
            <TextInput label="Message" multiline minRows={5} {...fieldProps(form, 'message')} />
            <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
              Send message
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </PublicPage>
  );
}
