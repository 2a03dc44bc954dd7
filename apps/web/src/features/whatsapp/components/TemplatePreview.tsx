import ImageOutlined from '@mui/icons-material/ImageOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Launch from '@mui/icons-material/Launch';
import Phone from '@mui/icons-material/Phone';
import Reply from '@mui/icons-material/Reply';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactElement } from 'react';
import { fillVariables } from '../model';

export type PreviewButton = { type: string; text: string };
export type PreviewTemplate = {
  header: { format: string; text?: string; example?: string } | null;
  body: string;
  footer: string | null;
  buttons: PreviewButton[];
};

const MEDIA_ICONS: Record<string, ReactElement> = {
  IMAGE: <ImageOutlined fontSize="large" />,
  VIDEO: <VideocamOutlined fontSize="large" />,
  DOCUMENT: <InsertDriveFileOutlined fontSize="large" />,
};
const BUTTON_ICONS: Record<string, ReactElement> = {
  QUICK_REPLY: <Reply fontSize="small" />,
  URL: <Launch fontSize="small" />,
  PHONE_NUMBER: <Phone fontSize="small" />,
};

/**
 * The message as a WhatsApp phone shows it: a light-green bubble on the beige chat wallpaper,
 * the header in bold (or a media placeholder), the body with its variables filled with the
 * examples, the footer small and grey, and each button as its own row under the bubble.
 */
export function TemplatePreview({
  template,
  values,
}: {
  template: PreviewTemplate;
  values: readonly string[];
}) {
  const { header, body, footer, buttons } = template;
  const headerText =
    header?.format === 'TEXT' && header.text ? fillVariables(header.text, [header.example ?? '']) : null;
  return (
    <Box
      role="figure"
      aria-label="Template preview"
      data-testid="template-preview"
      sx={{ bgcolor: '#ECE5DD', borderRadius: 2, p: 2, minHeight: 200, color: '#111b21' }}
    >
      <Box sx={{ maxWidth: 320 }}>
        <Box
          sx={{
            bgcolor: '#DCF8C6',
            borderRadius: '0 8px 8px 8px',
            p: 1,
            boxShadow: '0 1px 0.5px rgba(0,0,0,0.13)',
          }}
        >
          {header && header.format !== 'TEXT' ? (
            <Box
              sx={{
                bgcolor: '#c9d6c0',
                borderRadius: 1,
                height: 120,
                display: 'grid',
                placeItems: 'center',
                mb: 1,
                color: '#54656f',
              }}
              aria-label={`${header.format.toLowerCase()} header`}
            >
              {MEDIA_ICONS[header.format] ?? null}
            </Box>
          ) : null}
          {headerText ? (
            <Typography sx={{ fontWeight: 700, mb: 0.5, whiteSpace: 'pre-wrap' }}>{headerText}</Typography>
          ) : null}
          <Typography
            variant="body2"
            sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            data-testid="preview-body"
          >
            {body ? fillVariables(body, values) : 'Your message appears here.'}
          </Typography>
          {footer ? (
            <Typography variant="caption" sx={{ color: '#667781', display: 'block', mt: 0.5 }}>
              {footer}
            </Typography>
          ) : null}
          <Typography
            variant="caption"
            sx={{ color: '#667781', display: 'block', textAlign: 'right', fontSize: 11 }}
          >
            12:00
          </Typography>
        </Box>
        {buttons.map((button, index) => (
          <Box
            // Buttons have no id of their own; their order is their identity here.
            // biome-ignore lint/suspicious/noArrayIndexKey: order is the identity
            key={index}
            sx={{
              bgcolor: '#ffffff',
              borderRadius: 2,
              mt: 0.5,
              py: 0.75,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 0.5,
              color: '#00a5f4',
              fontSize: 14,
              boxShadow: '0 1px 0.5px rgba(0,0,0,0.13)',
            }}
          >
            {BUTTON_ICONS[button.type] ?? null}
            {button.text || 'Button'}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
