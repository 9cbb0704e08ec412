/** Fills `{name}` placeholders of a catalogue message. Unknown names stay visible, so a typo
 *  in messages/ shows up in review rather than as a silently empty string. */
export function format(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
