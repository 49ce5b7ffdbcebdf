import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import ArrowDownwardRounded from '@mui/icons-material/ArrowDownwardRounded';
import ArrowUpwardRounded from '@mui/icons-material/ArrowUpwardRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';

/** Move up, move down and remove for one row of a list ("entry 2"). */
export function RowActions({
  label,
  index,
  count,
  onMove,
  onRemove,
}: {
  /** Names the row in the buttons' labels: "entry 2". */
  label: string;
  index: number;
  count: number;
  /** Moves the row by -1 (up) or +1 (down). */
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexShrink: 0 }}>
      <IconButton
        aria-label={`Move ${label} up`}
        title="Move up"
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <ArrowUpwardRounded />
      </IconButton>
      <IconButton
        aria-label={`Move ${label} down`}
        title="Move down"
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <ArrowDownwardRounded />
      </IconButton>
      <IconButton aria-label={`Remove ${label}`} title="Remove" color="error" onClick={onRemove}>
        <DeleteOutlineRounded />
      </IconButton>
    </Stack>
  );
}

/** `list` with the item at `index` moved by `by` places. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item as T);
  return next;
}
