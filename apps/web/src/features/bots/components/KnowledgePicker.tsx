import Stack from '@mui/material/Stack';
import { useCallback, useMemo, useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { useWebSourcesQuery } from '../../crawler/api';
import { useFileGroupsQuery } from '../../files/api';
import { UploadDialog } from '../../files/components/UploadDialog';
import { useNotionStatusQuery } from '../../notion/api';
import { useSelectNewIds } from '../hooks/useSelectNewIds';
import type { KnowledgeIds } from '../schemas';
import { CrawlDialog } from './CrawlDialog';
import { SourceChecklist } from './SourceChecklist';

type Props = { value: KnowledgeIds; onChange: (next: KnowledgeIds) => void };

function count(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The tenant's file groups, web sources and Notion workspaces, each a checkbox list. Files and
 * websites are added in dialogs (the form around keeps what was typed) and come back selected.
 */
export function KnowledgePicker({ value, onChange }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const groups = useFileGroupsQuery(me?.id ?? 0, { skip: !me });
  const sources = useWebSourcesQuery(me?.tenant_id ?? 0, { skip: !me });
  const notion = useNotionStatusQuery();
  const [dialog, setDialog] = useState<'files' | 'website' | null>(null);

  const groupIds = useMemo(() => groups.data?.map((g) => g.id), [groups.data]);
  const sourceIds = useMemo(() => sources.data?.map((s) => s.source_id), [sources.data]);
  const watchGroups = useSelectNewIds(
    groupIds,
    useCallback(
      (added) => onChange({ ...value, file_group_ids: [...value.file_group_ids, ...added] }),
      [value, onChange],
    ),
  );
  const watchSources = useSelectNewIds(
    sourceIds,
    useCallback(
      (added) => onChange({ ...value, web_source_ids: [...value.web_source_ids, ...added] }),
      [value, onChange],
    ),
  );

  return (
    <Stack spacing={2}>
      <SourceChecklist
        title="File groups"
        options={(groups.data ?? []).map((g) => ({
          id: g.id,
          label: g.group_name,
          detail: count(g.files.length, 'file'),
        }))}
        selected={value.file_group_ids}
        loading={groups.isLoading}
        emptyText="No file groups yet."
        manageLabel="Add files"
        onAdd={() => {
          watchGroups();
          setDialog('files');
        }}
        onChange={(ids) => onChange({ ...value, file_group_ids: ids })}
      />
      <SourceChecklist
        title="Websites"
        options={(sources.data ?? []).map((s) => ({
          id: s.source_id,
          label: s.name || s.base_url,
          detail: count(s.page_count, 'page'),
        }))}
        selected={value.web_source_ids}
        loading={sources.isLoading}
        emptyText="No websites crawled yet."
        manageLabel="Crawl a website"
        onAdd={() => {
          watchSources();
          setDialog('website');
        }}
        onChange={(ids) => onChange({ ...value, web_source_ids: ids })}
      />
      <SourceChecklist
        title="Notion workspaces"
        options={(notion.data?.workspaces ?? []).map((w) => ({
          id: w.id,
          label: w.workspace_name,
          detail: count(w.page_count, 'page'),
        }))}
        selected={value.notion_workspace_ids}
        loading={notion.isLoading}
        emptyText="No Notion workspace connected."
        manageHref="/bot/knowledge/notion"
        manageLabel="Connect Notion"
        onChange={(ids) => onChange({ ...value, notion_workspace_ids: ids })}
      />
      {/* React carries a dialog's submit through its portal to the form around this picker (a wizard
          step): stop it here, or uploading a group would also submit the step. */}
      <div onSubmit={(event) => event.stopPropagation()}>
        <UploadDialog open={dialog === 'files'} onClose={() => setDialog(null)} />
        <CrawlDialog open={dialog === 'website'} onClose={() => setDialog(null)} />
      </div>
    </Stack>
  );
}
