import { useCallback, useEffect, useRef } from 'react';

/**
 * Once `watch()` is called, ids that later appear in `ids` (a source added in a dialog) are handed
 * to `onNew`, so what the person just added comes back selected.
 */
export function useSelectNewIds(ids: number[] | undefined, onNew: (added: number[]) => void) {
  const known = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!known.current || !ids) return;
    const seen = known.current;
    const added = ids.filter((id) => !seen.has(id));
    if (added.length === 0) return;
    for (const id of added) seen.add(id);
    onNew(added);
  }, [ids, onNew]);
  return useCallback(() => {
    known.current = new Set(ids ?? []);
  }, [ids]);
}
