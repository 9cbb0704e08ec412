import type { WidgetProps } from '@rjsf/utils';

/** A field the member neither sees nor sets (the address a code went to, carried by the code's
 *  form): the form keeps its value in its data, so nothing is rendered. rjsf's own rendered an
 *  `<input type="hidden" id="root_email">`, an id the visible form beside it already had. */
export default function HiddenWidget(_props: WidgetProps) {
  return null;
}
