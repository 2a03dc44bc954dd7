import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useDispatch, useSelector } from 'react-redux';
import { type Notice, noticeExpired } from '../../app/ui-slice';

/** The green success alerts of the last 10 seconds (spec section 8, Display). */
export function NoticeStack() {
  const notices = useSelector((state: { ui: { notices: Notice[] } }) => state.ui.notices);
  const dispatch = useDispatch();
  if (notices.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} aria-live="polite">
      {notices.map((notice) => (
        <Alert key={notice.id} severity="success" onClose={() => dispatch(noticeExpired(notice.id))}>
          {notice.message}
        </Alert>
      ))}
    </Stack>
  );
}
