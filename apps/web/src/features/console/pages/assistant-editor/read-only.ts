/** A text field's `slotProps` that make it read-only (viewers): readable and focusable, not editable. */
export function readOnlyInput(readOnly: boolean) {
  return readOnly ? { htmlInput: { readOnly: true } } : undefined;
}
