import { sql, type SelectQueryBuilder } from 'kysely';

/** The platform's list query, after validation. */
export interface ListFilters {
  limit: number;
  createdAtGt?: string | undefined;
  createdAtLt?: string | undefined;
  createdAtGe?: string | undefined;
  createdAtLe?: string | undefined;
  updatedAtGt?: string | undefined;
  updatedAtLt?: string | undefined;
  updatedAtGe?: string | undefined;
  updatedAtLe?: string | undefined;
}

const OPERATORS = { Gt: '>', Lt: '<', Ge: '>=', Le: '<=' } as const;
const COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/**
 * Applies the time filters, newest first, and the limit, to a query over one table with
 * `created_at`, `updated_at` and `id` columns. Times are normalised to UTC ISO strings, the
 * form they are stored in, so text comparison orders them correctly.
 */
export function applyListFilters<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  filters: ListFilters,
): SelectQueryBuilder<DB, TB, O> {
  let filtered = query;
  for (const [field, column] of Object.entries(COLUMNS)) {
    for (const [suffix, operator] of Object.entries(OPERATORS)) {
      const value = filters[`${field}${suffix}` as keyof ListFilters];
      if (typeof value !== 'string') continue;
      const at = new Date(value).toISOString();
      filtered = filtered.where(sql<boolean>`${sql.ref(column)} ${sql.raw(operator)} ${at}`);
    }
  }
  return filtered
    .orderBy(sql.ref('created_at'), 'desc')
    .orderBy(sql.ref('id'), 'desc')
    .limit(filters.limit);
}
