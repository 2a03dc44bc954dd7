import Stack from '@mui/material/Stack';
import { useAppSelector } from '../../../app/store';
import { useWebSourcesQuery } from '../../crawler/api';
import { useFileGroupsQuery } from '../../files/api';
import { useNotionStatusQuery } from '../../notion/api';
import type { KnowledgeIds } from '../schemas';
import { SourceChecklist } from './SourceChecklist';

type Props = { value: KnowledgeIds; onChange: (next: KnowledgeIds) => void };

function count(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The tenant's file groups, web sources and Notion workspaces, each a checkbox list. */
export function KnowledgePicker({ value, onChange }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const groups = useFileGroupsQuery(me?.id ?? 0, { skip: !me });
  const sources = useWebSourcesQuery(me?.tenant_id ?? 0, { skip: !me });
  const notion = useNotionStatusQuery();
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
        manageHref="/bot/knowledge/files"
        manageLabel="Add files"
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
        manageHref="/bot/knowledge/websites"
        manageLabel="Crawl a website"
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
    </Stack>
  );
}
