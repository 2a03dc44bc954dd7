import { useEffect, useState } from 'react';

/**
 * A picked image as a data: URL for previews. (The app's content security policy allows data:
 * images, not blob: ones, and profile images are at most 2 MB.)
 */
export function usePreviewUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setUrl(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return url;
}
